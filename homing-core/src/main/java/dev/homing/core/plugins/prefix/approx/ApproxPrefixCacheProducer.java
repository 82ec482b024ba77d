package dev.homing.core.plugins.prefix.approx;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.plugin.SelfReporting;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * llm-d's {@code approx-prefix-cache-producer}: hashes the prompt into blocks, says how many leading blocks each
 * endpoint was already sent ({@link PrefixMatch}), and after the pick records the blocks for the chosen endpoint, at
 * once, so the next decision sees them.
 *
 * <p>Parameters and defaults as llm-d's {@code defaultConfig}: {@code autoTune} true (block size and per-endpoint
 * capacity from {@code vllm:cache_config_info}), {@code blockSizeTokens} 16 (four bytes per token),
 * {@code maxPrefixBlocksToMatch} 256, {@code maxPrefixTokensToMatch} 0 (off), {@code lruCapacityPerServer} 31,250.
 * Homing adds {@code maxIndexedBlocks} (1,000,000): one bound for the whole index whatever the number of endpoints;
 * and {@code autoTuneBytesPerToken} (false): with {@code autoTune}, turn each endpoint's capacity in tokens into bytes
 * of text at the bytes per token its responses' {@code usage} shows rather than llm-d's fixed 4 (an index that thinks
 * a pod holds less than it does sends a prompt away from the pod that still has it; one that thinks it holds more
 * sends it where it was evicted).
 *
 * <p>The index is the host's ({@link LearnedState}: in memory, or shared by the router's replicas through Redis). Its
 * lookup starts in {@link #prepare}, before the decision lock, and is finished in {@link #produce}.
 */
public final class ApproxPrefixCacheProducer extends NamedPlugin implements DataProducer, PreRequest, Rerouted,
        ResponseHooks, SelfReporting {

    public static final String TYPE = "approx-prefix-cache-producer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ApproxPrefixCacheProducer::create);
    static final int BYTES_PER_TOKEN = 4;

    /**
     * One request's block hashes and the block size they were cut with (matching and recording use that size), and
     * the index lookup begun for them.
     */
    private record Hashed(long[] hashes, int blockSizeTokens, ApproxIndex.Lookup lookup, int promptBytes) {
    }

    /** This producer's own: a precise producer's fallback is another instance, whose hashes may be another size. */
    private final CycleKey<Hashed> hashes = CycleKey.of("approx-prefix-hashes", Hashed.class);
    /** Leading blocks each endpoint held at the decision, by snapshot index: what a reroute leaves the pick. */
    private final CycleKey<int[]> matches = CycleKey.of("approx-prefix-matched", int[].class);
    /** The stamp of the pick's record, which a reroute forgets. */
    private final CycleKey<Integer> recorded = CycleKey.of("approx-prefix-recorded", Integer.class);
    private final boolean autoTune;
    private final int configuredBlockSizeTokens;
    private final int maxBlocks;
    private final int maxTokens;
    private final long lruCapacityPerServer;
    private final ApproxIndex index;
    private final BytesPerToken bytesPerToken = new BytesPerToken();
    private final boolean learnBytesPerToken;
    private final AtomicLong lookups = new AtomicLong();
    private final AtomicLong hitBlocks = new AtomicLong();
    private final AtomicLong queriedBlocks = new AtomicLong();
    private final ClaimAccuracy claims = new ClaimAccuracy();

    /** @param learned where the index lives: it is made there under this producer's name */
    public ApproxPrefixCacheProducer(String name, boolean autoTune, int blockSizeTokens, int maxPrefixBlocksToMatch,
                                     int maxPrefixTokensToMatch, long lruCapacityPerServer, long maxIndexedBlocks,
                                     LearnedState learned) {
        this(name, autoTune, blockSizeTokens, maxPrefixBlocksToMatch, maxPrefixTokensToMatch, lruCapacityPerServer,
                maxIndexedBlocks, false, learned);
    }

    /**
     * @param learnBytesPerToken with {@code autoTune}, size each endpoint's share by the bytes per token its responses
     *                           show instead of llm-d's 4 (Homing's {@code autoTuneBytesPerToken})
     */
    public ApproxPrefixCacheProducer(String name, boolean autoTune, int blockSizeTokens, int maxPrefixBlocksToMatch,
                                     int maxPrefixTokensToMatch, long lruCapacityPerServer, long maxIndexedBlocks,
                                     boolean learnBytesPerToken, LearnedState learned) {
        super(TYPE, name);
        this.learnBytesPerToken = learnBytesPerToken;
        if (blockSizeTokens <= 0) {
            throw new PluginConfigException("parameter 'blockSizeTokens' must be > 0, got " + blockSizeTokens);
        }
        if (maxPrefixBlocksToMatch <= 0) {
            throw new PluginConfigException("parameter 'maxPrefixBlocksToMatch' must be > 0, got " + maxPrefixBlocksToMatch);
        }
        if (maxPrefixTokensToMatch < 0) {
            throw new PluginConfigException("parameter 'maxPrefixTokensToMatch' must be >= 0");
        }
        if (lruCapacityPerServer <= 0) {
            throw new PluginConfigException("parameter 'lruCapacityPerServer' must be > 0, got " + lruCapacityPerServer);
        }
        if (maxIndexedBlocks <= 0) {
            throw new PluginConfigException("parameter 'maxIndexedBlocks' must be > 0, got " + maxIndexedBlocks);
        }
        this.autoTune = autoTune;
        this.configuredBlockSizeTokens = blockSizeTokens;
        this.maxBlocks = maxPrefixBlocksToMatch;
        this.maxTokens = maxPrefixTokensToMatch;
        this.lruCapacityPerServer = lruCapacityPerServer;
        this.index = learned.approxIndex(name(), maxIndexedBlocks);
    }

    /**
     * Every parameter {@link #create} reads. Older configurations wrote them on {@code prefix-cache-scorer}, whose
     * pairing moves them here.
     */
    public static final Set<String> PARAMETERS = Set.of("autoTune", "blockSize", "blockSizeTokens",
            "maxPrefixBlocksToMatch", "maxPrefixTokensToMatch", "lruCapacityPerServer", "maxIndexedBlocks",
            "autoTuneBytesPerToken");

    static ApproxPrefixCacheProducer create(String name, Parameters p, PluginContext ctx) {
        if (p.has("blockSize") && !p.has("blockSizeTokens")) {
            throw new PluginConfigException("parameter 'blockSize' (characters) is deprecated: set 'blockSizeTokens' instead");
        }
        ApproxPrefixCacheProducer producer = new ApproxPrefixCacheProducer(name,
                p.bool("autoTune", true),
                p.integer("blockSizeTokens", 16),
                p.integer("maxPrefixBlocksToMatch", 256),
                p.integer("maxPrefixTokensToMatch", 0),
                p.longValue("lruCapacityPerServer", 31_250),
                p.longValue("maxIndexedBlocks", 1_000_000),
                p.bool("autoTuneBytesPerToken", false),
                ctx.learnedState());
        ctx.pool().onRemoved(e -> producer.index.removeEndpoint(e.name()));
        return producer;
    }

    public ApproxIndex index() {
        return index;
    }

    @Override
    public void prepare(Cycle cycle) {
        int bs = autoTune ? engineBlockSize(cycle.snapshot().endpoints()) : configuredBlockSizeTokens;
        int limit = maxTokens > 0 ? Math.max(1, maxTokens / bs) : maxBlocks;
        long[] h = PromptBlockHasher.hash(cycle.request().fields(), cycle.request().targetModel(), bs * BYTES_PER_TOKEN,
                limit);
        cycle.put(hashes, new Hashed(h, bs, index.lookup(h), cycle.request().fields().promptBytes()));
        if (autoTune && learnBytesPerToken) {
            // the prompt counted at the rate its blocks are, so that its cached part is never more than its length
            cycle.estimatePromptTokens(cycle.request().fields().estimatedPromptTokens(bytesPerToken.value()));
        }
    }

    @Override
    public void produce(Cycle cycle, List<EndpointState> candidates) {
        Hashed h = cycle.get(hashes);
        if (h == null) { // a caller that skipped prepare
            prepare(cycle);
            h = cycle.get(hashes);
        }
        int[] matched = h.lookup().match(candidates, cycle.snapshot().size());
        cycle.put(matches, matched);
        cycle.put(PrefixMatch.KEY, new PrefixMatch(matched, h.hashes().length, tokensPerBlock(h)));
        int best = 0;
        for (int m : matched) {
            best = Math.max(best, m);
        }
        lookups.incrementAndGet();
        queriedBlocks.addAndGet(h.hashes().length);
        hitBlocks.addAndGet(best);
    }

    /**
     * A block is blockSizeTokens × 4 bytes of text: as many tokens as that, unless the responses taught otherwise
     * (then a fraction: rounding 9.4 tokens a block to 9 would under-count every long match by 4 %).
     */
    private double tokensPerBlock(Hashed h) {
        return learnBytesPerToken ? h.blockSizeTokens() * BYTES_PER_TOKEN / bytesPerToken.value() : h.blockSizeTokens();
    }

    /**
     * llm-d's auto-tune: the engines' block size, once a scrape has told it (the first endpoint that knows), else the
     * configured one. Chosen per request, so a request's hashes and its match always share one size.
     */
    private int engineBlockSize(List<EndpointState> endpoints) {
        for (EndpointState e : endpoints) {
            int bs = e.metrics().blockSize();
            if (bs > 0) {
                return bs;
            }
        }
        return configuredBlockSizeTokens;
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        Hashed h = cycle.get(hashes);
        if (h == null || h.hashes().length == 0) {
            return;
        }
        cycle.put(recorded, record(result.target(), h));
        EndpointState prefill = result.prefillTarget();
        if (prefill != null) {
            record(prefill, h);
        }
    }

    /**
     * The gateway served the request elsewhere: the blocks the pick did not hold before are no longer guessed to be
     * there (those it held stay: they were there before this request; and so do those a later request recorded for it
     * since), and the endpoint that served holds them all.
     */
    @Override
    public void rerouted(Cycle cycle, EndpointState picked, EndpointState served) {
        Hashed h = cycle.get(hashes);
        if (h == null || h.hashes().length == 0) {
            return;
        }
        int[] matched = cycle.get(matches);
        int held = matched == null || picked.index() >= matched.length ? 0 : matched[picked.index()];
        Integer stamp = cycle.get(recorded);
        if (stamp != null) {
            index.forget(picked.name(), h.hashes(), held, stamp);
        }
        record(served, h);
    }

    private int record(EndpointState target, Hashed h) {
        long capacity = lruCapacityPerServer;
        long blocks = target.metrics().numGpuBlocks();
        int engineBlock = target.metrics().blockSize();
        if (autoTune && blocks > 0 && engineBlock > 0) {
            // the pod holds blocks × engineBlock tokens; the index's blocks are blockSizeTokens × 4 bytes of text
            double bytes = (double) blocks * engineBlock * bytesPerToken.value();
            capacity = Math.max(1, (long) (bytes / ((long) h.blockSizeTokens() * BYTES_PER_TOKEN)));
        }
        return index.record(target.name(), h.hashes(), capacity);
    }

    /**
     * The response said how many tokens the prompt was ({@code usage.prompt_tokens}): with the bytes the pick hashed,
     * that tells how much text a pod's token of KV holds, which sizes each endpoint's share of the index.
     */
    @Override
    public void onComplete(Cycle cycle, SchedulingResult result, Outcome outcome) {
        Hashed h = cycle.get(hashes);
        if (h == null || cycle.isDryRun()) {
            return;
        }
        if (autoTune && learnBytesPerToken) {
            bytesPerToken.observe(h.promptBytes(), outcome.promptTokens());
        }
        int[] matched = cycle.get(matches);
        EndpointState target = result.target();
        if (matched != null && outcome.succeeded() && outcome.promptTokens() > 0 && outcome.cachedTokens() >= 0) {
            double perBlock = tokensPerBlock(h);
            long held = target.index() < matched.length ? matched[target.index()] : 0;
            long claimed = Math.min(outcome.promptTokens(), Math.round(held * perBlock));
            int engineBlock = Math.max(1, target.metrics().blockSize());
            claims.observe(claimed, outcome.cachedTokens(), 2 * Math.max(engineBlock, Math.round(perBlock)));
        }
    }

    /**
     * The bytes per token in use, the share of the prompt's blocks the best pod held (llm-d's hit ratio), and how
     * the index's claims compared with the cached tokens the pods reported ({@link ClaimAccuracy}).
     */
    @Override
    public Map<String, Double> report() {
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("bytesPerToken", bytesPerToken.value());
        out.put("hitRatio", hitRatio());
        out.putAll(claims.report());
        return out;
    }

    /** Bytes of prompt text per token, as learnt from responses (llm-d's 4 until one has said). */
    public double bytesPerToken() {
        return bytesPerToken.value();
    }

    /** Blocks of the best match over blocks queried, since start: llm-d's {@code prefix_indexer_hit_ratio}. */
    public double hitRatio() {
        long q = queriedBlocks.get();
        return q == 0 ? 0 : (double) hitBlocks.get() / q;
    }

    public long lookups() {
        return lookups.get();
    }
}
