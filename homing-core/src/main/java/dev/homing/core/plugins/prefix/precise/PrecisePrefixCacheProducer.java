package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.request.UsesTokens;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.PromptTokens;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.precise.BlockKeys;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.precise.KvEventsSettings;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.core.precise.PreciseIndexFactory;
import dev.homing.core.time.Ticker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * llm-d's {@code precise-prefix-cache-producer}: says how much of a prompt each pod holds from what the pods report
 * in their KV-cache events ({@link PreciseIndex}, fed by the router's subscriber), not from the router's guesses.
 * Needs the prompt's tokens: from a {@code token-producer} earlier in the cycle, or asked of the host's
 * {@link TokenSource}. When tokens cannot be had in time the request falls back to approximate matching over its
 * bytes, and {@link #fallbacks()} counts it.
 *
 * <p>Parameters as llm-d's: {@code tokenProcessorConfig {blockSize | blockSizeTokens (16), hashSeed}} (also accepted
 * under {@code indexerConfig}), {@code indexerConfig {kvBlockIndexConfig {...}, tokenizersPoolConfig {...},
 * kvCacheBackendConfigs [{name, weight}]}} (gpu 1.0, cpu 0.8), {@code kvEventsConfig} ({@link KvEventsSettings}),
 * {@code speculativeIndexing} (false), {@code speculativeTTL} (2s). Homing adds {@code maxIndexedBlocks}
 * (4,000,000 holdings), {@code maxPrefixTokensToMatch} (0: all), {@code tokenTimeout} (5s), and for speculative holds
 * {@code speculativeUntilPrefilled} (false: llm-d's fixed TTL; true: until the pick's prefill is done, then the TTL),
 * {@code speculativeMaxAge} (10m) and {@code maxSpeculativeBlocksPerPod} (262,144): {@link SpeculativeOwnership}.
 *
 * <p>The index is made by the host's {@link PreciseIndexFactory} ({@link PluginContext#preciseIndexes()}: the router's
 * Redis-backed index when its replicas share state, in memory otherwise). Its lookup starts in {@link #prepare}, before the decision
 * lock, so an index with remote state does its round trip there.
 */
public final class PrecisePrefixCacheProducer extends NamedPlugin implements DataProducer, PreRequest, Rerouted,
        ResponseHooks, KvEventFeed, UsesTokens {

    public static final String TYPE = "precise-prefix-cache-producer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PrecisePrefixCacheProducer::create);

    private final CycleKey<Prepared> prepared = CycleKey.of("precise-prepared", Prepared.class);
    /** The target's hold, and a P/D prefill endpoint's. */
    private final CycleKey<SpeculativeOwnership.Hold[]> holds =
            CycleKey.of("precise-holds", SpeculativeOwnership.Hold[].class);
    private final PreciseIndex index;
    private final KvEventsSettings events;
    private final boolean speculative;
    private final SpeculativeOwnership ownership;
    private final int maxBlocks;
    private final Duration tokenTimeout;
    private final TokenSource tokens;
    private final Ticker ticker;
    private final ApproxPrefixCacheProducer fallback;
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLong lookups = new AtomicLong();

    PrecisePrefixCacheProducer(String name, PreciseIndex index, KvEventsSettings events, boolean speculative,
                               Duration speculativeTtl, int maxPrefixTokens, Duration tokenTimeout, TokenSource tokens,
                               Ticker ticker, ApproxPrefixCacheProducer fallback) {
        this(name, index, events, speculative, new Speculation(false, speculativeTtl, DEFAULT_MAX_AGE,
                DEFAULT_MAX_SPECULATIVE_BLOCKS), maxPrefixTokens, tokenTimeout, tokens, ticker, fallback);
    }

    /** How speculative holds last: llm-d's TTL, or (Homing's) until the prefill is done, capped. */
    record Speculation(boolean untilPrefilled, Duration ttl, Duration maxAge, long maxBlocksPerPod) {
    }

    /** Homing's caps on a hold that lasts until the prefill: 10 minutes, 262,144 blocks (4 M tokens of 16) a pod. */
    static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(10);
    static final long DEFAULT_MAX_SPECULATIVE_BLOCKS = 262_144;

    PrecisePrefixCacheProducer(String name, PreciseIndex index, KvEventsSettings events, boolean speculative,
                               Speculation speculation, int maxPrefixTokens, Duration tokenTimeout, TokenSource tokens,
                               Ticker ticker, ApproxPrefixCacheProducer fallback) {
        super(TYPE, name);
        this.index = index;
        this.events = events;
        this.speculative = speculative;
        this.ownership = new SpeculativeOwnership(index, ticker, speculation.untilPrefilled(),
                speculation.ttl().toNanos(), speculation.maxAge().toNanos(), speculation.maxBlocksPerPod());
        this.maxBlocks = maxPrefixTokens > 0 ? Math.max(1, maxPrefixTokens / index.blockSize()) : Integer.MAX_VALUE;
        this.tokenTimeout = tokenTimeout;
        this.tokens = tokens;
        this.ticker = ticker;
        this.fallback = fallback;
    }

    static PrecisePrefixCacheProducer create(String name, Parameters p, PluginContext ctx) {
        int[] blockSize = {16};
        long[] seed = {0};
        int[] maxTokens = {p.integer("maxPrefixTokensToMatch", 0)};
        Map<String, Double> tiers = new LinkedHashMap<>(PreciseIndex.DEFAULT_TIER_WEIGHTS);
        NestedParameters.mapping(p, "tokenProcessorConfig", t -> tokenProcessor(t, blockSize, seed));
        NestedParameters.mapping(p, "indexerConfig", i -> {
            NestedParameters.mapping(i, "tokenProcessorConfig", t -> tokenProcessor(t, blockSize, seed));
            NestedParameters.mapping(i, "kvBlockIndexConfig", k -> {
                k.bool("enableMetrics", false);
                k.duration("metricsLoggingInterval", null);
                k.node("inMemoryConfig");
                k.node("costAwareMemoryConfig");
                k.node("redisConfig");
                k.node("valkeyConfig");
                int m = k.integer("maxPrefixTokensToMatch", 0);
                if (m > 0) {
                    maxTokens[0] = m;
                }
                return null;
            });
            i.node("tokenizersPoolConfig"); // tokens come from the host's token source, not an in-process pool
            for (Map.Entry<String, Double> t : NestedParameters.list(i, "kvCacheBackendConfigs",
                    b -> Map.entry(b.string("name", "gpu").toLowerCase(java.util.Locale.ROOT), b.number("weight", 1.0)))) {
                tiers.put(t.getKey(), t.getValue());
            }
            return null;
        });
        KvEventsSettings events = NestedParameters.mapping(p, "kvEventsConfig", KvEventsParameters::read);
        boolean speculative = p.bool("speculativeIndexing", false);
        Duration ttl = p.duration("speculativeTTL", Duration.ofSeconds(2));
        boolean untilPrefilled = p.bool("speculativeUntilPrefilled", false);
        Duration maxAge = p.duration("speculativeMaxAge", DEFAULT_MAX_AGE);
        long maxSpeculative = p.longValue("maxSpeculativeBlocksPerPod", DEFAULT_MAX_SPECULATIVE_BLOCKS);
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new PluginConfigException("parameter 'speculativeMaxAge' must be > 0, got " + maxAge);
        }
        if (maxSpeculative <= 0) {
            throw new PluginConfigException("parameter 'maxSpeculativeBlocksPerPod' must be > 0, got "
                    + maxSpeculative);
        }
        long maxEntries = p.longValue("maxIndexedBlocks", 4_000_000);
        Duration timeout = p.duration("tokenTimeout", Duration.ofSeconds(5));
        if (blockSize[0] <= 0) {
            throw new PluginConfigException("parameter 'blockSize' must be > 0, got " + blockSize[0]);
        }
        if (maxEntries <= 0) {
            throw new PluginConfigException("parameter 'maxIndexedBlocks' must be > 0, got " + maxEntries);
        }
        if (ttl.isNegative() || ttl.isZero()) {
            throw new PluginConfigException("parameter 'speculativeTTL' must be > 0, got " + ttl);
        }
        PreciseIndex index = ctx.preciseIndexes().create(maxEntries, blockSize[0], seed[0], tiers);
        ApproxPrefixCacheProducer fallback = new ApproxPrefixCacheProducer(name + "-fallback", true, blockSize[0], 256, 0,
                31_250, 1_000_000, ctx.learnedState());
        PrecisePrefixCacheProducer producer = new PrecisePrefixCacheProducer(name, index, events, speculative,
                new Speculation(untilPrefilled, ttl, maxAge, maxSpeculative), maxTokens[0], timeout,
                ctx.tokens().orElse(null), ctx.ticker(), fallback);
        ctx.pool().onRemoved(e -> {
            index.removePod(e.name());
            producer.ownership.forget(e.name());
            fallback.index().removeEndpoint(e.name());
        });
        return producer;
    }

    private static Void tokenProcessor(Parameters t, int[] blockSize, long[] seed) {
        int tokensSize = t.integer("blockSizeTokens", -1);
        int legacy = t.integer("blockSize", -1);
        if (tokensSize > 0 || legacy > 0) {
            blockSize[0] = tokensSize > 0 ? tokensSize : legacy;
        }
        String hashSeed = t.string("hashSeed", null);
        if (hashSeed != null) {
            seed[0] = hashSeed.hashCode();
        }
        return null;
    }

    @Override
    public PreciseIndex index() {
        return index;
    }

    @Override
    public KvEventsSettings events() {
        return events;
    }

    /** A request's block keys and their lookup; both null when its tokens could not be had (the fallback's turn). */
    private record Prepared(long[] keys, PreciseIndex.Lookup lookup) {
    }

    /** A request routed on load only (embeddings, passthrough): nothing to look up, no tokens asked for. */
    private static final Prepared NOTHING = new Prepared(null, null);

    @Override
    public void prepare(Cycle cycle) {
        if (!cycle.request().fields().api().prefixAffinity()) {
            cycle.put(prepared, NOTHING);
            fallback.prepare(cycle); // hashes nothing: every endpoint matches no block
            return;
        }
        PromptTokens t = PromptTokens.obtain(cycle, tokens, null, tokenTimeout).orElse(null);
        if (t == null) {
            cycle.put(prepared, new Prepared(null, null));
            fallback.prepare(cycle);
            return;
        }
        long[] keys = BlockKeys.of(index.root(cycle.request().targetModel(), cycle.request().cacheSalt()), t.ids(),
                index.blockSize(), maxBlocks);
        cycle.put(prepared, new Prepared(keys, index.lookup(keys, ticker.nanos())));
    }

    @Override
    public void produce(Cycle cycle, List<EndpointState> candidates) {
        Prepared p = cycle.get(prepared);
        if (p == null) { // a caller that skipped prepare
            prepare(cycle);
            p = cycle.get(prepared);
        }
        if (p == NOTHING) {
            fallback.produce(cycle, candidates);
            return;
        }
        lookups.incrementAndGet();
        if (p.keys() == null) {
            fallbacks.incrementAndGet();
            fallback.produce(cycle, candidates);
            return;
        }
        PreciseIndex.Match m = p.lookup().match(candidates, cycle.snapshot().size(), ticker.nanos());
        cycle.put(PrefixMatch.KEY, new PrefixMatch(m.matchedBlocks(), m.totalBlocks(), index.blockSize()));
        cycle.put(PreciseScores.KEY, new PreciseScores(m.weightedBlocks()));
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        Prepared p = cycle.get(prepared);
        long[] keys = p == null ? null : p.keys();
        if (keys == null) {
            fallback.preRequest(cycle, result);
            return;
        }
        if (!speculative) {
            return;
        }
        SpeculativeOwnership.Hold target = ownership.hold(result.target().name(), keys);
        SpeculativeOwnership.Hold prefill = result.prefillTarget() == null ? null
                : ownership.hold(result.prefillTarget().name(), keys);
        if (target != null || prefill != null) {
            cycle.put(holds, new SpeculativeOwnership.Hold[] {target, prefill});
        }
    }

    /** The prefill is done: the holds last the TTL more, for the pods' events to confirm the blocks. */
    @Override
    public void onFirstToken(Cycle cycle, SchedulingResult result) {
        eachHold(cycle, ownership::prefilled);
    }

    /** Ended: a hold whose prefill never finished is dropped (a settled one is left to its TTL). */
    @Override
    public void onComplete(Cycle cycle, SchedulingResult result, Outcome outcome) {
        eachHold(cycle, ownership::abandoned);
    }

    private void eachHold(Cycle cycle, java.util.function.Consumer<SpeculativeOwnership.Hold> action) {
        SpeculativeOwnership.Hold[] h = cycle.get(holds);
        if (h != null) {
            for (SpeculativeOwnership.Hold hold : h) {
                action.accept(hold);
            }
        }
    }

    /**
     * The gateway served the request elsewhere: with speculative indexing, the endpoint that served holds the prompt
     * speculatively until its prefill is done or its KV events arrive; the pick's hold (until its prefill) is dropped,
     * a TTL hold expires by itself. The pods' events stay the truth.
     */
    @Override
    public void rerouted(Cycle cycle, EndpointState picked, EndpointState served) {
        Prepared p = cycle.get(prepared);
        long[] keys = p == null ? null : p.keys();
        if (keys == null) {
            fallback.rerouted(cycle, picked, served);
        } else if (speculative) {
            SpeculativeOwnership.Hold[] h = cycle.get(holds);
            SpeculativeOwnership.Hold prefill = null;
            if (h != null) {
                ownership.abandoned(h[0]);
                prefill = h[1];
            }
            SpeculativeOwnership.Hold moved = ownership.hold(served.name(), keys);
            cycle.put(holds, new SpeculativeOwnership.Hold[] {moved, prefill});
        }
    }

    /** Blocks held for a pod until their picks' prefills are done, not yet settled. */
    public long speculativeBlocks(String pod) {
        return ownership.outstanding(pod);
    }

    /** Requests matched approximately because their tokens could not be had. */
    public long fallbacks() {
        return fallbacks.get();
    }

    public long lookups() {
        return lookups.get();
    }
}
