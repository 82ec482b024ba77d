package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 */
public final class NoHitLruScorer extends NamedPlugin implements Scorer, PreRequest, Rerouted {

    public static final String TYPE = "no-hit-lru-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, NoHitLruScorer::create);
    private static final CycleKey<Boolean> COLD = CycleKey.of("no-hit-lru-cold", Boolean.class);

    private final Map<String, Boolean> lru;

    /** Parameters: {@code lruSize} (1024); llm-d's {@code prefixPluginType}/{@code prefixPluginName} are read and ignored. */
    static NoHitLruScorer create(String name, Parameters p, PluginContext ctx) {
        p.string("prefixPluginType", null); // llm-d names the prefix plugin; Homing reads the shared PrefixMatch
        p.string("prefixPluginName", null);
        return new NoHitLruScorer(name, p.integer("lruSize", 1024));
    }

    public NoHitLruScorer(String name, int lruSize) {
        super(TYPE, name);
        if (lruSize <= 0) {
            throw new PluginConfigException("parameter 'lruSize' must be > 0, got " + lruSize);
        }
        this.lru = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > lruSize;
            }
        };
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        double[] scores = new double[n];
        PrefixMatch match = cycle.get(PrefixMatch.KEY);
        boolean cold = match == null || !match.anyHit();
        cycle.put(COLD, cold);
        if (!cold) {
            java.util.Arrays.fill(scores, 0.5);
            return scores;
        }
        if (n == 1) {
            scores[0] = 1.0;
            return scores;
        }
        List<Integer> order = new ArrayList<>(n);
        synchronized (lru) {
            for (int i = 0; i < n; i++) {
                if (!lru.containsKey(candidates.get(i).name())) {
                    order.add(i); // never given a newcomer: first, in candidate order
                }
            }
            Map<String, Integer> position = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                position.put(candidates.get(i).name(), i);
            }
            for (String used : lru.keySet()) { // oldest first
                Integer i = position.get(used);
                if (i != null) {
                    order.add(i);
                }
            }
        }
        for (int rank = 0; rank < order.size(); rank++) {
            scores[order.get(rank)] = Math.max(0, 1.0 - (double) rank / (n - 1));
        }
        return scores;
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        if (!Boolean.TRUE.equals(cycle.get(COLD))) {
            return;
        }
        synchronized (lru) {
            lru.put(result.target().name(), Boolean.TRUE);
            if (result.prefillTarget() != null) {
                lru.put(result.prefillTarget().name(), Boolean.TRUE);
            }
        }
    }

    /** A newcomer the gateway served elsewhere was received there: that endpoint becomes the most recently used. */
    @Override
    public void rerouted(Cycle cycle, EndpointState picked, EndpointState served) {
        if (!Boolean.TRUE.equals(cycle.get(COLD))) {
            return;
        }
        synchronized (lru) {
            lru.put(served.name(), Boolean.TRUE);
        }
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
