package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.hashing.BlockHasher;
import dev.homing.sim.engine.EngineRequest.State;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * A discrete-event model of one vLLM V1 engine (calibration.md §4). It never reads a clock: the caller passes model
 * time to {@link #submit} and {@link #advanceTo}, so the same engine runs in real time behind an HTTP pod
 * ({@link RealTimeEngineDriver}) and in virtual time in a benchmark.
 *
 * <p>Per step, as vLLM's scheduler: every running decode gets one token, then running prefills get chunks, then waiting
 * requests are admitted first-come-first-served while there are seats ({@code maxNumSeqs}), token budget
 * ({@code maxNumBatchedTokens}) and KV blocks; a request whose LoRA adapter would make the batch exceed
 * {@code maxLoras} adapters is passed over, keeping its place. A running request that cannot get a block preempts the
 * most recently admitted running request (RECOMPUTE: its blocks are freed, it goes back to the front of the queue, and
 * its prefix may still hit); no request is admitted in a step that preempted. Admission looks up the prefix cache: the
 * longest run of cached full blocks, capped at {@code num_tokens − 1} so the last token is always computed. Blocks are
 * cached as soon as they are scheduled full, output blocks included, and evicted least recently used first. The step's
 * duration comes from the {@link CostModel}; its tokens are delivered to observers when it ends. Prefix-cache changes
 * go to the {@link KvEventSink} as they happen, closed by one {@code onSchedulerStep} per step.
 *
 * <p>Not thread-safe: one thread drives it (or a lock guards it, as in {@link RealTimeEngineDriver}).
 */
public final class Engine {

    private static final System.Logger LOG = System.getLogger(Engine.class.getName());
    private static final Comparator<EngineRequest> BY_READY_TIME =
            Comparator.comparingLong((EngineRequest r) -> r.readyNanos).thenComparingLong(r -> r.sequence);

    private final EngineConfig config;
    private final CostModel cost;
    private final KvEventSink sink;
    private final boolean publishing;
    private final StepObserver stepObserver;
    private final RandomGenerator rng;
    private final BlockHasher hasher;
    private final BlockPool pool;
    private final int blockSize;

    private final PriorityQueue<EngineRequest> arriving = new PriorityQueue<>(BY_READY_TIME);
    private final ArrayDeque<EngineRequest> waiting = new ArrayDeque<>();
    private final ArrayList<EngineRequest> running = new ArrayList<>();
    private final ArrayList<EngineRequest> scheduled = new ArrayList<>();
    private Block[] hits = new Block[64];

    private long now = Long.MIN_VALUE;
    private boolean stepInFlight;
    private long stepEndNanos;
    private long nextSequence;

    private long promptTokens;
    private long generationTokens;
    private long prefixCacheQueries;
    private long prefixCacheHits;
    private long preemptions;
    private long steps;
    private final long[] finished = new long[FinishReason.values().length];

    /**
     * @param sink receives prefix-cache changes; {@link KvEventSink#NONE} to skip building them
     * @param rng the only source of randomness: noise, outputs and (without a hash seed) the NONE_HASH
     */
    public Engine(EngineConfig config, KvEventSink sink, RandomGenerator rng) {
        this(config, sink, StepObserver.NONE, rng);
    }

    /** @param steps hears about every step as it starts (for per-step metrics) */
    public Engine(EngineConfig config, KvEventSink sink, StepObserver steps, RandomGenerator rng) {
        this.config = Objects.requireNonNull(config, "config");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.stepObserver = Objects.requireNonNull(steps, "steps");
        this.rng = Objects.requireNonNull(rng, "rng");
        this.cost = config.cost();
        this.publishing = sink != KvEventSink.NONE;
        this.blockSize = config.blockSize();
        this.hasher = config.hashSeed() == null
                ? BlockHasher.withRandomSeed(rng)
                : BlockHasher.withPythonHashSeed(config.hashSeed());
        this.pool = new BlockPool(config.numGpuBlocks(), sink);
    }

    public EngineConfig config() {
        return config;
    }

    /** The hash of the parent of every request's first block; fixed for the engine's life. */
    public BlockHash noneHash() {
        return hasher.noneHash();
    }

    /**
     * Takes a request at model time {@code nowNanos} (raised to the engine's clock if earlier). It reaches the waiting
     * queue after the cost model's per-request overhead. Hashes the prompt's full blocks now.
     *
     * @throws IllegalArgumentException if the prompt does not leave room for one output token within
     *     {@code maxModelLen}, or the request could never fit in the KV cache even alone
     */
    public RequestHandle submit(SimRequest request, long nowNanos, RequestObserver observer) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(observer, "observer");
        int prompt = request.promptTokens().length;
        if (request.pooling() ? prompt > config.maxModelLen() : prompt >= config.maxModelLen()) {
            throw new IllegalArgumentException("the prompt has " + prompt + " tokens; max_model_len is "
                    + config.maxModelLen() + (request.pooling() ? "" : " and at least one token must be generated"));
        }
        // A pooling request computes every prompt token and samples none: room for its prompt's KV only.
        int maxLength = request.pooling() ? prompt + 1
                : (int) Math.min((long) prompt + request.maxTokens(), config.maxModelLen());
        // The last sampled token never gets KV, so a request needs blocks for maxLength − 1 tokens at most.
        int blocksNeeded = ceilDiv(maxLength - 1, blockSize);
        if (blocksNeeded > pool.usable()) {
            throw new IllegalArgumentException("the request needs up to " + blocksNeeded + " KV blocks; the cache has "
                    + pool.usable());
        }
        long arrival = Math.max(nowNanos, now);
        long ready = arrival + cost.requestOverheadNanos(rng);
        EngineRequest r = new EngineRequest(request, observer, nextSequence++, arrival, ready, maxLength, blockSize,
                hasher);
        arriving.add(r);
        return r.handle;
    }

    /** The model time of the next thing that happens (a step ending, a request arriving); MAX_VALUE when idle. */
    public long nextEventNanos() {
        long t = arriving.isEmpty() ? Long.MAX_VALUE : arriving.peek().readyNanos;
        return stepInFlight ? Math.min(t, stepEndNanos) : t;
    }

    /**
     * Runs every event at or before {@code nowNanos} in order: arrivals join the waiting queue, steps that end deliver
     * their tokens, and the next step starts at once (at the event's time, not at {@code nowNanos}, so the model's
     * timeline does not depend on how often this is called).
     */
    public void advanceTo(long nowNanos) {
        while (true) {
            long t = nextEventNanos();
            if (t > nowNanos || t == Long.MAX_VALUE) {
                break;
            }
            now = Math.max(now, t);
            while (!arriving.isEmpty() && arriving.peek().readyNanos <= t) {
                EngineRequest r = arriving.poll();
                r.state = State.WAITING;
                waiting.addLast(r);
                try {
                    r.observer.onQueued(r.readyNanos);
                } catch (RuntimeException e) {
                    observerFailed(e);
                }
            }
            if (stepInFlight && stepEndNanos <= t) {
                endStep();
            }
            if (!stepInFlight) {
                startStep(t);
            }
        }
        now = Math.max(now, nowNanos);
    }

    /**
     * Ends a request wherever it is (a client disconnect): its blocks are freed (they stay cached) and its observer
     * gets {@link FinishReason#ABORT}. Returns false if it had already finished.
     */
    public boolean abort(RequestHandle handle) {
        EngineRequest r = handle.state;
        switch (r.state) {
            case ARRIVING -> arriving.remove(r);
            case WAITING -> waiting.remove(r);
            case RUNNING -> {
                running.remove(r);
                freeBlocks(r);
            }
            case FINISHED -> {
                return false;
            }
        }
        r.state = State.FINISHED;
        finished[FinishReason.ABORT.ordinal()]++;
        tellFinish(r, FinishReason.ABORT, Math.max(now, r.arrivalNanos));
        return true;
    }

    /**
     * vLLM's {@code reset_prefix_cache}: forgets every cached block, but only while no request holds one. The
     * {@code AllBlocksCleared} event goes out at once rather than with the next step (see {@link KvEventSink}).
     */
    public boolean resetPrefixCache() {
        if (!pool.reset()) {
            return false;
        }
        if (publishing) {
            sink.onSchedulerStep(now);
        }
        return true;
    }

    public EngineStats stats() {
        return new EngineStats(running.size(), waiting.size(), arriving.size(), pool.usage(), pool.numUsed(),
                pool.usable(), pool.numCached(), promptTokens, generationTokens, prefixCacheQueries, prefixCacheHits,
                preemptions, finished[FinishReason.STOP.ordinal()], finished[FinishReason.LENGTH.ordinal()],
                finished[FinishReason.ABORT.ordinal()], steps, loras(running), loras(waiting));
    }

    /** How many tokens of {@code promptTokens} a request would find cached now, without taking anything. */
    public int cachedPrefixTokens(int[] promptTokens, String loraName, String cacheSalt) {
        BlockHash parent = null;
        int cachedBlocks = 0;
        int maxBlocks = (promptTokens.length - 1) / blockSize;
        BlockHasher probe = hasher.copy();
        for (int b = 0; b < maxBlocks; b++) {
            parent = probe.hash(parent, promptTokens, b * blockSize, (b + 1) * blockSize,
                    BlockHasher.extraKeys(loraName, cacheSalt, b == 0));
            if (pool.cachedBlock(parent) == null) {
                break;
            }
            cachedBlocks++;
        }
        return cachedBlocks * blockSize;
    }

    private void startStep(long t) {
        if (running.isEmpty() && waiting.isEmpty()) {
            return;
        }
        int attempts = 0;
        while (!schedule(t)) {
            // Nothing fitted but requests were preempted; the next attempt starts from the freed blocks.
            if (++attempts > running.size() + waiting.size() + 1) {
                throw new IllegalStateException("the engine can schedule nothing: " + stats());
            }
        }
        if (publishing) {
            sink.onSchedulerStep(t);
        }
        double prefillWork = 0;
        int decodes = 0;
        long decodeContext = 0;
        int tokens = 0;
        for (int i = 0; i < scheduled.size(); i++) {
            EngineRequest r = scheduled.get(i);
            tokens += r.scheduled;
            if (r.isDecoding()) {
                decodes++;
                decodeContext += r.numComputed + 1;
            } else {
                prefillWork += cost.prefillWork(r.scheduled, r.numComputed);
            }
        }
        stepEndNanos = t + cost.stepNanos(prefillWork, decodes, decodeContext, running.size(), config.maxNumSeqs(),
                rng);
        stepInFlight = true;
        steps++;
        stepObserver.onStep(t, stepEndNanos, tokens, running.size());
    }

    /** Fills {@link #scheduled} for one step starting at {@code t}; false if nothing could be scheduled. */
    private boolean schedule(long t) {
        scheduled.clear();
        int budget = config.maxNumBatchedTokens();
        boolean preempted = false;
        runningLoop:
        for (int pass = 0; pass < 2; pass++) {
            boolean decodePass = pass == 0;
            for (int i = 0; i < running.size() && budget > 0; i++) {
                EngineRequest r = running.get(i);
                if (r.scheduled > 0 || r.isDecoding() != decodePass) {
                    continue;
                }
                int n = Math.min(r.numTokens - r.numComputed, budget);
                while (!allocate(r, n, 0)) {
                    EngineRequest victim = running.removeLast();
                    budget += unschedule(victim);
                    preempt(victim);
                    preempted = true;
                    if (victim == r) {
                        break runningLoop;
                    }
                }
                r.scheduled = n;
                budget -= n;
                scheduled.add(r);
            }
        }
        if (!preempted) {
            admit(budget, t);
        }
        return !scheduled.isEmpty();
    }

    private void admit(int budget, long t) {
        if (waiting.isEmpty() || running.size() >= config.maxNumSeqs()) {
            return;
        }
        Set<String> loras = config.maxLoras() > 0 ? loraSet(running) : Set.of();
        Iterator<EngineRequest> it = waiting.iterator();
        while (budget > 0 && it.hasNext() && running.size() < config.maxNumSeqs()) {
            EngineRequest r = it.next();
            String lora = r.request.loraName();
            if (lora != null && config.maxLoras() > 0 && loras.size() >= config.maxLoras() && !loras.contains(lora)) {
                continue; // vLLM skips it, keeping its place, and tries the requests behind it
            }
            int maxHitBlocks = Math.min((r.numTokens - 1) / blockSize, r.numHashes);
            if (hits.length < maxHitBlocks) {
                hits = new Block[Math.max(maxHitBlocks, hits.length * 2)];
            }
            int hitBlocks = pool.longestHit(r.hashes, maxHitBlocks, hits);
            int hitTokens = hitBlocks * blockSize;
            int n = Math.min(r.numTokens - hitTokens, budget);
            if (!allocate(r, n, hitBlocks)) {
                break;
            }
            it.remove();
            r.state = State.RUNNING;
            running.add(r);
            if (lora != null && config.maxLoras() > 0) {
                loras.add(lora);
            }
            if (r.preemptions == 0) {
                try {
                    r.observer.onScheduled(t);
                } catch (RuntimeException e) {
                    observerFailed(e);
                }
                // vLLM counts queries and hits for new requests only; a preempted request's re-lookup is not a query.
                prefixCacheQueries += r.numTokens;
                prefixCacheHits += hitTokens;
                r.cachedTokens = hitTokens;
            }
            r.scheduled = n;
            budget -= n;
            scheduled.add(r);
        }
    }

    /**
     * vLLM's {@code allocate_slots}: takes the {@code hitBlocks} cached blocks in {@link #hits}, allocates what else
     * {@code newTokens} more tokens need, and caches the blocks those tokens fill. False, changing nothing, if the free
     * blocks do not suffice.
     */
    private boolean allocate(EngineRequest r, int newTokens, int hitBlocks) {
        int computed = r.numComputed + hitBlocks * blockSize;
        int toAllocate = Math.max(0, ceilDiv(computed + newTokens, blockSize) - r.numBlocks - hitBlocks);
        if (toAllocate > 0 || hitBlocks > 0) {
            int evictableHits = 0;
            for (int i = 0; i < hitBlocks; i++) {
                if (hits[i].refCount == 0) {
                    evictableHits++;
                }
            }
            if (toAllocate > pool.numFree() - evictableHits) {
                return false;
            }
            for (int i = 0; i < hitBlocks; i++) {
                pool.touch(hits[i]);
                r.addBlock(hits[i]);
                hits[i] = null;
            }
            r.numCachedBlocks += hitBlocks;
            for (int i = 0; i < toAllocate; i++) {
                r.addBlock(pool.allocate());
            }
        }
        r.numComputed = computed;
        cacheFullBlocks(r, Math.min(computed + newTokens, r.numTokens));
        return true;
    }

    private void cacheFullBlocks(EngineRequest r, int tokens) {
        int full = tokens / blockSize;
        int first = r.numCachedBlocks;
        if (full <= first) {
            return;
        }
        for (int j = first; j < full; j++) {
            pool.register(r.blocks[j], r.hashes[j]);
        }
        r.numCachedBlocks = full;
        if (publishing) {
            List<List<Object>> extraKeys = new ArrayList<>(full - first);
            for (int j = first; j < full; j++) {
                extraKeys.add(r.extraKeys(j));
            }
            sink.onBlockStored(new StoredBlocks(first == 0 ? null : r.hashes[first - 1],
                    List.of(Arrays.copyOfRange(r.hashes, first, full)),
                    Arrays.copyOfRange(r.tokens, first * blockSize, full * blockSize), blockSize,
                    r.request.loraName(), r.request.loraId(), Collections.unmodifiableList(extraKeys)));
        }
    }

    private int unschedule(EngineRequest r) {
        int n = r.scheduled;
        if (n > 0) {
            scheduled.remove(r);
            r.scheduled = 0;
        }
        return n;
    }

    private void preempt(EngineRequest r) {
        freeBlocks(r);
        r.numComputed = 0;
        r.preemptions++;
        preemptions++;
        r.state = State.WAITING;
        waiting.addFirst(r);
    }

    /** Frees tail blocks first, so they are evicted before the prefix they extend (as vLLM does). */
    private void freeBlocks(EngineRequest r) {
        for (int j = r.numBlocks - 1; j >= 0; j--) {
            pool.release(r.blocks[j]);
            r.blocks[j] = null;
        }
        r.numBlocks = 0;
        r.numCachedBlocks = 0;
    }

    private void endStep() {
        stepInFlight = false;
        long t = stepEndNanos;
        for (int i = 0; i < scheduled.size(); i++) {
            EngineRequest r = scheduled.get(i);
            if (r.state != State.RUNNING) {
                continue; // aborted while the step ran
            }
            r.numComputed += r.scheduled;
            r.scheduled = 0;
            if (r.numComputed == r.numTokens) {
                sample(r, t);
            }
        }
        scheduled.clear();
    }

    private void sample(EngineRequest r, long t) {
        if (r.request.pooling()) {
            // its prefill is over: the output (an embedding) is ready and it ends, as vLLM finishes a pooling request
            // in the step that computed its last prompt token, having cost a prefill and no decode
            firstToken(r, t);
            finish(r, FinishReason.STOP, t);
            return;
        }
        OutputModel output = r.request.output();
        int token = output.nextToken(r.outputTokens, rng);
        r.appendToken(token, hasher);
        r.outputTokens++;
        generationTokens++;
        if (r.firstTokenNanos == Long.MIN_VALUE) {
            firstToken(r, t);
        }
        // vLLM's check_stop: length first, then EOS.
        FinishReason reason = null;
        if (r.outputTokens >= r.request.maxTokens() || r.numTokens >= config.maxModelLen()) {
            reason = FinishReason.LENGTH;
        } else if (!r.request.ignoreEos() && output.endsSequence(token)) {
            reason = FinishReason.STOP;
        }
        try {
            r.observer.onToken(token, reason != null, t);
        } catch (RuntimeException e) {
            observerFailed(e);
        }
        if (reason != null) {
            finish(r, reason, t);
        }
    }

    /** The request's first output (a token, or a pooling request's result) at {@code t}: its prompt is computed. */
    private void firstToken(EngineRequest r, long t) {
        r.firstTokenNanos = t;
        promptTokens += r.promptLength;
        try {
            r.observer.onFirstToken(t);
        } catch (RuntimeException e) {
            observerFailed(e);
        }
    }

    /** The request is done: it leaves the running queue, its blocks are freed and its observer told. */
    private void finish(EngineRequest r, FinishReason reason, long t) {
        running.remove(r);
        freeBlocks(r);
        r.state = State.FINISHED;
        finished[reason.ordinal()]++;
        tellFinish(r, reason, t);
    }

    /** The adapters in use, sorted, as vLLM's {@code lora_requests_info} lists them; none when LoRA is off. */
    private List<String> loras(Iterable<EngineRequest> requests) {
        return config.maxLoras() > 0 ? List.copyOf(loraSet(requests)) : List.of();
    }

    private static Set<String> loraSet(Iterable<EngineRequest> requests) {
        TreeSet<String> names = new TreeSet<>();
        for (EngineRequest r : requests) {
            if (r.request.loraName() != null) {
                names.add(r.request.loraName());
            }
        }
        return names;
    }

    private static void tellFinish(EngineRequest r, FinishReason reason, long t) {
        try {
            r.observer.onFinish(reason, r.usage(), t);
        } catch (RuntimeException e) {
            observerFailed(e);
        }
    }

    /** An observer that throws must not leave the engine half-way through a step; its request goes on. */
    private static void observerFailed(RuntimeException e) {
        LOG.log(Level.WARNING, "request observer failed", e);
    }

    private static int ceilDiv(int a, int b) {
        return a <= 0 ? 0 : (a + b - 1) / b;
    }
}
