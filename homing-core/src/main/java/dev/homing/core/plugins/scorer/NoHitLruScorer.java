package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * llm-d's {@code no-hit-lru-scorer}, the newcomer spreader. A request no endpoint holds any block of is cold; cold
 * requests are steered to the endpoint that least recently received a cold request, so fresh cache entries do not pile
 * up on one pod. Warm requests score 0.5 everywhere (neutral).
 *
 * <p>Cold, N candidates: N = 1 scores 1.0; endpoints never given a newcomer come first in candidate order, then the
 * others from least to most recently used; rank r scores {@code 1 − r/(N−1)}. The order is a bounded LRU
 * ({@code lruSize}, default 1024) updated after the pick, for cold requests only.
 *
 * <p>The order is the host's ({@link LearnedState}: in memory, or shared by the router's replicas through Redis). It
 * is also a data producer for that reason alone: {@link #prepare} starts reading the order before the decision lock,
 * so that a remote order is never waited on under it.
 */
public final class NoHitLruScorer extends NamedPlugin implements Scorer, DataProducer, PreRequest, Rerouted {

    public static final String TYPE = "no-hit-lru-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, NoHitLruScorer::create);
    private static final CycleKey<Boolean> COLD = CycleKey.of("no-hit-lru-cold", Boolean.class);

    /** This scorer's own reading of its order, begun in prepare. */
    private final CycleKey<NewcomerLru.Lookup> order = CycleKey.of("no-hit-lru-order", NewcomerLru.Lookup.class);
    private final NewcomerLru lru;

    /** Parameters: {@code lruSize} (1024); llm-d's {@code prefixPluginType}/{@code prefixPluginName} are read and ignored. */
    static NoHitLruScorer create(String name, Parameters p, PluginContext ctx) {
        p.string("prefixPluginType", null); // llm-d names the prefix plugin; Homing reads the shared PrefixMatch
        p.string("prefixPluginName", null);
        return new NoHitLruScorer(name, p.integer("lruSize", 1024), ctx.learnedState());
    }

    /** A scorer whose order lives in this process's memory. */
    public NoHitLruScorer(String name, int lruSize) {
        this(name, lruSize, LearnedState.IN_MEMORY);
    }

    /** @param learned where the order lives: it is made there under this scorer's name */
    public NoHitLruScorer(String name, int lruSize, LearnedState learned) {
        super(TYPE, name);
        if (lruSize <= 0) {
            throw new PluginConfigException("parameter 'lruSize' must be > 0, got " + lruSize);
        }
        this.lru = learned.newcomerLru(name(), lruSize);
    }

    /** Starts reading the order (whether the request is cold is known only under the lock). */
    @Override
    public void prepare(Cycle cycle) {
        cycle.put(order, lru.lookup());
    }

    @Override
    public void produce(Cycle cycle, List<EndpointState> candidates) {
        // nothing: the order is read in score, for cold requests only
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        double[] scores = new double[n];
        PrefixMatch match = cycle.get(PrefixMatch.KEY);
        boolean cold = match == null || !match.anyHit();
        cycle.put(COLD, cold);
        if (!cold) {
            Arrays.fill(scores, 0.5);
            return scores;
        }
        if (n == 1) {
            scores[0] = 1.0;
            return scores;
        }
        NewcomerLru.Lookup lookup = cycle.get(order);
        List<String> used = (lookup != null ? lookup : lru.lookup()).leastRecentFirst(); // null: prepare was skipped
        Map<String, Integer> position = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            position.put(candidates.get(i).name(), i);
        }
        int[] rankOf = new int[n];
        Arrays.fill(rankOf, -1);
        int rank = 0;
        int[] usedOrder = new int[n];
        int usedCount = 0;
        for (String name : used) {
            Integer i = position.get(name);
            if (i != null && rankOf[i] < 0) {
                rankOf[i] = Integer.MAX_VALUE; // ranked after the never-used ones, below
                usedOrder[usedCount++] = i;
            }
        }
        for (int i = 0; i < n; i++) {
            if (rankOf[i] < 0) {
                rankOf[i] = rank++; // never given a newcomer: first, in candidate order
            }
        }
        for (int k = 0; k < usedCount; k++) {
            rankOf[usedOrder[k]] = rank++; // then from least to most recently used
        }
        for (int i = 0; i < n; i++) {
            scores[i] = Math.max(0, 1.0 - (double) rankOf[i] / (n - 1));
        }
        return scores;
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        if (!Boolean.TRUE.equals(cycle.get(COLD))) {
            return;
        }
        lru.received(result.target().name());
        if (result.prefillTarget() != null) {
            lru.received(result.prefillTarget().name());
        }
    }

    /** A newcomer the gateway served elsewhere was received there: that endpoint becomes the most recently used. */
    @Override
    public void rerouted(Cycle cycle, EndpointState picked, EndpointState served) {
        if (!Boolean.TRUE.equals(cycle.get(COLD))) {
            return;
        }
        lru.received(served.name());
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
