package dev.homing.bench.virtual;

import dev.homing.bench.policy.Placement;
import dev.homing.bench.policy.PlacementException;
import dev.homing.bench.policy.Policies;
import dev.homing.bench.policy.Policy;
import dev.homing.bench.policy.PolicyContext;
import dev.homing.bench.policy.PolicyRequest;
import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.workload.RequestBodies;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import dev.homing.bench.result.FlowRecord;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.flowcontrol.FlowController;
import dev.homing.core.flowcontrol.FlowListener;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.protocol.openai.RoutingFields;
import dev.homing.sim.engine.Engine;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.EngineStats;
import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.SimRequest;
import dev.homing.sim.engine.Usage;
import dev.homing.sim.kvevents.KvEventsConfig;
import dev.homing.sim.kvevents.StepBatcher;
import dev.homing.sim.virtual.VirtualTimeLoop;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;

/**
 * One policy's run of one workload on a fresh virtual cluster: the pods are simulated engines on one
 * {@link VirtualTimeLoop}; the router is the policy, which sees the pods as a router of its kind does (scrapes every
 * {@code scrapeInterval} of virtual time, KV events after {@code kvEventLag}, its own requests' progress). Every
 * request is placed at its arrival, submitted to its pod's engine, and recorded when it ends; turns of a conversation
 * and closed-loop requests are sent when their predecessor or a slot frees (a session's turn with a gap, that gap
 * after its predecessor's answer). Deterministic for a seed: the engines'
 * generators derive from it and the pod index, the policy's from it and its name, and nothing reads a wall clock.
 *
 * <p>A policy whose config turns flow control on ({@link Policy#flowControl()}) has its requests held as the router's
 * {@code FlowGate} holds them: each enqueues in a {@link FlowController} on the virtual clock at its arrival, is placed
 * the instant it is admitted, and ends its ticket when it ends; refusals (429 queues full, 503 TTL) are its answer.
 * Dispatch cycles run at each arrival, at each request's end, after each scrape, at each waiting request's deadline,
 * and every millisecond of virtual time while anything waits (the router's dispatcher polls each millisecond).
 */
final class ClusterRun {

    /** vLLM's default chance per token of ending a response that does not ignore EOS (the sim's --eos-probability). */
    static final double EOS_PROBABILITY = 0.02;
    private static final long SECOND = 1_000_000_000L;
    /** The router's FlowGate runs a dispatch cycle each millisecond while requests wait. */
    static final long FLOW_CYCLE_NANOS = 1_000_000L;
    private static final Clock EPOCH = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);

    private final Workload workload;
    private final List<WorkloadRequest> requests;
    private final String policyName;
    private final long seed;
    private final long scrapeInterval;
    private final long kvEventLag;
    private final String model;
    private final boolean tokenIdPrompts;
    private final BiConsumer<String, Double> progress;
    private final VirtualTimeLoop loop = new VirtualTimeLoop();
    private final Engine[] engines;
    private final String[] podNames;
    private final EngineConfig engineConfig;
    private final Policy policy;
    private final RequestRecord[] records;
    private final List<LoadSample> load = new ArrayList<>();
    private final int[] successor;
    private final boolean[] waitsForPredecessor;
    private final PriorityQueue<Integer> ready = new PriorityQueue<>();
    private final int reportEvery;
    private final FlowRecord[] flowRecords;
    private final boolean hasFlows;
    private final FlowController flowControl;
    private boolean cyclePending;
    private int inFlight;
    private int finished;

    ClusterRun(Workload workload, EngineConfig engineConfig, String model, int pods, String policyName, long seed,
               long scrapeIntervalNanos, long kvEventLagNanos, BiConsumer<String, Double> progress) {
        this.workload = workload;
        this.requests = workload.requests();
        this.seed = seed;
        this.scrapeInterval = scrapeIntervalNanos;
        this.kvEventLag = kvEventLagNanos;
        this.model = model;
        this.engineConfig = engineConfig;
        this.tokenIdPrompts = "token_ids".equals(String.valueOf(workload.parameters().get(Workloads.PROMPTS_AS)));
        this.progress = progress;
        this.podNames = new String[pods];
        for (int i = 0; i < pods; i++) {
            podNames[i] = "pod-" + i;
        }
        this.policy = Policies.create(policyName, new PolicyContext(List.of(podNames), loop::now, seed,
                engineConfig.blockSize()));
        this.policyName = policy.name();
        this.engines = new Engine[pods];
        for (int i = 0; i < pods; i++) {
            KvEventSink sink = policy.consumesKvEvents() ? batcher(i) : KvEventSink.NONE;
            engines[i] = loop.add(new Engine(engineConfig, sink, new SplittableRandom(mix(seed, i))));
        }
        int n = requests.size();
        this.records = new RequestRecord[n];
        this.successor = new int[n];
        this.waitsForPredecessor = new boolean[n];
        this.reportEvery = Math.max(1, n / 100);
        this.flowRecords = new FlowRecord[n];
        this.hasFlows = requests.stream().anyMatch(r -> r.flow() != null || r.priority() != 0);
        FlowControlSettings fc = policy.flowControl();
        this.flowControl = fc == null ? null : new FlowController(fc, loop::now, FlowListener.NONE);
        linkConversations();
    }

    /** Runs the whole workload; returns every request's record in workload order, and the pods' load each second. */
    PolicyRun run() {
        long wallStart = System.nanoTime();
        if (policy.readsMetrics()) {
            loop.schedule(0, this::scrape);
        }
        loop.schedule(0, this::sampleLoad);
        if (workload.closedLoop()) {
            for (int i = 0; i < requests.size(); i++) {
                if (!waitsForPredecessor[i]) {
                    ready.add(i);
                }
            }
            loop.schedule(0, this::fill);
        } else {
            for (int i = 0; i < requests.size(); i++) {
                if (!waitsForPredecessor[i]) {
                    int index = i;
                    loop.schedule(Math.max(0, requests.get(i).arrivalNanos()), () -> send(index));
                }
            }
        }
        loop.runUntilIdle();
        if (finished != requests.size()) {
            throw new IllegalStateException(policyName + ": " + (requests.size() - finished)
                    + " requests never finished");
        }
        progress.accept(policyName, 1.0);
        return new PolicyRun(policyName, workload.name(), Arrays.asList(records), load, workload.stageQps(),
                System.nanoTime() - wallStart, policy.pluginReports(),
                hasFlows ? Arrays.asList(flowRecords) : List.of());
    }

    private void linkConversations() {
        Arrays.fill(successor, -1);
        Map<Long, Integer> byTurn = new HashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            WorkloadRequest r = requests.get(i);
            if (r.conversation() < 0) {
                continue;
            }
            Integer previous = r.turn() > 0 ? byTurn.get(turnKey(r.conversation(), r.turn() - 1)) : null;
            if (previous != null) {
                successor[previous] = i;
                waitsForPredecessor[i] = true;
            }
            byTurn.put(turnKey(r.conversation(), r.turn()), i);
        }
    }

    private static long turnKey(int conversation, int turn) {
        return ((long) conversation << 32) | (turn & 0xffff_ffffL);
    }

    private void fill() {
        while (inFlight < workload.concurrency() && !ready.isEmpty()) {
            send(ready.poll());
        }
    }

    private void send(int i) {
        WorkloadRequest r = requests.get(i);
        long now = loop.now();
        inFlight++;
        int[] tokens = r.prompt().tokens();
        if (tokens == null) {
            throw new IllegalStateException("request " + r.id() + " has no token ids; virtual time needs them");
        }
        RoutingFields fields = null;
        byte[] body = null;
        if (policy.readsBodies() || flowControl != null) {
            body = RequestBodies.of(r, modelOf(r), tokenIdPrompts);
            try {
                fields = RequestParser.parse(r.prompt().isChat() ? ApiKind.CHAT_COMPLETIONS : ApiKind.COMPLETIONS,
                        body);
            } catch (RequestFormatException e) {
                throw new IllegalStateException("request " + r.id() + " makes a body the router refuses", e);
            }
        }
        PolicyRequest request = new PolicyRequest(r.id(), fields, r.prompt(), tokens, r.maxTokens(), r.flow(),
                r.priority());
        if (flowControl == null) {
            place(i, now, request, null);
            return;
        }
        Map<String, String> headers = r.flow() == null ? Map.of() : Map.of(InferenceRequest.FAIRNESS_HEADER, r.flow());
        Held held = new Held(i, now, request);
        Ticket ticket = flowControl.enqueue(new InferenceRequest(r.id(), fields, headers).withPriority(r.priority()),
                body.length, held, policy.saturation());
        held.ticket = ticket;
        if (ticket.refusal() != null) {
            held.refused(ticket.refusal());
        } else if (ticket.admittedAtOnce()) {
            held.admitted();
        } else {
            long ttl = flowControl.settings().defaultTtlNanos();
            if (ttl > 0) {
                loop.schedule(now + ttl, this::dispatchCycles); // expiry exactly at the deadline
            }
            dispatchCycles(); // the dispatcher wakes on an enqueue
        }
    }

    /** Places a request on a pod now (at its arrival, or when flow control admits it) and submits it there. */
    private void place(int i, long arrival, PolicyRequest request, Ticket ticket) {
        WorkloadRequest r = requests.get(i);
        long now = loop.now();
        long queued = ticket == null ? -1 : now - arrival;
        int[] tokens = request.tokens();
        Placement placement;
        try {
            placement = policy.place(request);
        } catch (PlacementException e) {
            if (ticket != null) {
                ticket.end();
            }
            flowRecords[i] = new FlowRecord(r.flow(), r.priority(), queued, false);
            end(i, new RequestRecord(r.id(), r.stage(), arrival, null, e.status(), -1, -1, tokens.length, -1, 0));
            return;
        }
        flowRecords[i] = new FlowRecord(r.flow(), r.priority(), queued, true);
        Sent s = new Sent(i, arrival, placement, ticket);
        SimRequest sim = new SimRequest(r.id(), tokens, r.maxTokens(), r.ignoreEos(), null, 0, null,
                new ScriptedOutput(outputLength(i, r)));
        try {
            engines[placement.pod()].submit(sim, now, s);
        } catch (IllegalArgumentException e) { // vLLM's 400: too long for the model or the cache
            placement.finished(now);
            if (ticket != null) {
                ticket.end();
            }
            end(i, new RequestRecord(r.id(), r.stage(), arrival, podNames[placement.pod()], 400, -1, -1,
                    tokens.length, -1, 0));
        }
    }

    /**
     * Runs flow control's dispatch cycles now, as the router's dispatcher does, and keeps a cycle each millisecond
     * while anything waits. Admitted requests are placed inside (their waiters place them before the next cycle).
     */
    private void dispatchCycles() {
        if (flowControl == null) {
            return;
        }
        flowControl.dispatch(policy::saturation);
        if (flowControl.queued() > 0 && !cyclePending) {
            cyclePending = true;
            loop.schedule(loop.now() + FLOW_CYCLE_NANOS, () -> {
                cyclePending = false;
                dispatchCycles();
            });
        }
    }

    /** A request in flow control's hands: placed when admitted, answered when refused. */
    private final class Held implements Waiter {
        private final int index;
        private final long arrival;
        private final PolicyRequest request;
        private Ticket ticket;

        Held(int index, long arrival, PolicyRequest request) {
            this.index = index;
            this.arrival = arrival;
            this.request = request;
        }

        @Override
        public void admitted() {
            place(index, arrival, request, ticket);
        }

        @Override
        public void refused(SchedulingException why) {
            WorkloadRequest r = requests.get(index);
            flowRecords[index] = new FlowRecord(r.flow(), r.priority(), loop.now() - arrival, false);
            end(index, new RequestRecord(r.id(), r.stage(), arrival, null, why.status(), -1, -1,
                    r.prompt().tokens().length, -1, 0));
        }
    }

    private String modelOf(WorkloadRequest r) {
        return r.model() != null ? r.model() : model;
    }

    /** Fixed per request: max_tokens when EOS is ignored, else a geometric draw from the run's seed. */
    private int outputLength(int i, WorkloadRequest r) {
        if (r.ignoreEos()) {
            return r.maxTokens();
        }
        SplittableRandom rng = new SplittableRandom(mix(seed ^ 0x5EED_0F0E_05L, i));
        int n = 1;
        while (n < r.maxTokens() && rng.nextDouble() >= EOS_PROBABILITY) {
            n++;
        }
        return n;
    }

    /** Bookkeeping of a request's end; sends what it was holding back, as an action at this instant. */
    private void end(int i, RequestRecord record) {
        records[i] = record;
        if (flowRecords[i] == null) {
            WorkloadRequest r = requests.get(i);
            flowRecords[i] = new FlowRecord(r.flow(), r.priority(), -1, false);
        }
        if (flowControl != null && flowControl.queued() > 0) {
            loop.schedule(loop.now(), this::dispatchCycles); // headroom came back: after this step, not inside it
        }
        inFlight--;
        finished++;
        if (finished % reportEvery == 0 && finished < requests.size()) {
            progress.accept(policyName, (double) finished / requests.size());
        }
        int next = successor[i];
        if (workload.closedLoop()) {
            if (next >= 0 && requests.get(next).followsByGap()) {
                loop.schedule(loop.now() + requests.get(next).gapNanos(), () -> {
                    ready.add(next);
                    fill();
                });
            } else if (next >= 0) {
                ready.add(next);
            }
            loop.schedule(loop.now(), this::fill);
        } else if (next >= 0) {
            WorkloadRequest n = requests.get(next);
            // a session's turn goes its think time after this answer; a multi-turn turn no earlier than its arrival
            long at = n.followsByGap() ? loop.now() + n.gapNanos() : Math.max(loop.now(), n.arrivalNanos());
            loop.schedule(at, () -> send(next));
        }
    }

    private boolean running() {
        return finished < requests.size();
    }

    private void scrape() {
        long now = loop.now();
        for (int p = 0; p < engines.length; p++) {
            EngineStats s = engines[p].stats();
            policy.scraped(p, new EndpointMetrics(s.waiting(), s.running(), s.kvCacheUsage(),
                    engineConfig.blockSize(), engineConfig.numGpuBlocks(), Set.of(), Set.of(), -1, now));
        }
        if (flowControl != null && flowControl.queued() > 0) {
            dispatchCycles();
        }
        if (running()) {
            loop.schedule(now + scrapeInterval, this::scrape);
        }
    }

    private void sampleLoad() {
        long now = loop.now();
        for (int p = 0; p < engines.length; p++) {
            EngineStats s = engines[p].stats();
            load.add(new LoadSample(now, podNames[p], s.running(), s.waiting(), s.kvCacheUsage()));
        }
        if (running()) {
            loop.schedule(now + SECOND, this::sampleLoad);
        }
    }

    /** The engine's KV events, one batch per scheduler step, handed to the policy after the transport's lag. */
    private KvEventSink batcher(int pod) {
        return new StepBatcher(KvEventsConfig.zmq(KvEventsConfig.DEFAULT_ENDPOINT), EPOCH, (seq, batch) -> {
            loop.schedule(loop.now() + kvEventLag, () -> policy.kvEvents(pod, batch.events()));
            return true;
        });
    }

    static long mix(long seed, long salt) {
        long z = seed + 0x9E37_79B9_7F4A_7C15L * (salt + 1);
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** One request on its way: what the engine tells it becomes its record. */
    private final class Sent implements RequestObserver {
        private final int index;
        private final long sentNanos;
        private final Placement placement;
        private final Ticket ticket;
        private long firstToken = -1;
        private long scheduled = -1;
        private long queued = -1;

        Sent(int index, long sentNanos, Placement placement, Ticket ticket) {
            this.index = index;
            this.sentNanos = sentNanos;
            this.placement = placement;
            this.ticket = ticket;
        }

        @Override
        public void onQueued(long nanos) {
            queued = nanos;
        }

        @Override
        public void onScheduled(long nanos) {
            scheduled = nanos;
        }

        @Override
        public void onFirstToken(long nanos) {
            firstToken = nanos;
            placement.firstToken(nanos);
        }

        @Override
        public void onToken(int tokenId, boolean last, long nanos) {
        }

        @Override
        public void onFinish(FinishReason reason, Usage usage, long nanos) {
            if (reason == FinishReason.ABORT) {
                placement.finished(nanos);
            } else {
                placement.finished(nanos, usage.promptTokens(), usage.completionTokens(), usage.cachedTokens());
            }
            if (ticket != null) {
                ticket.end();
            }
            WorkloadRequest r = requests.get(index);
            int status = reason == FinishReason.ABORT ? 0 : 200;
            end(index, new RequestRecord(r.id(), r.stage(), sentNanos, podNames[placement.pod()], status,
                    firstToken < 0 ? -1 : firstToken - sentNanos, nanos - sentNanos, usage.promptTokens(),
                    usage.cachedTokens(), usage.completionTokens(), scheduled < 0 ? -1 : scheduled - sentNanos,
                    scheduled < 0 || queued < 0 ? -1 : scheduled - queued));
        }
    }
}
