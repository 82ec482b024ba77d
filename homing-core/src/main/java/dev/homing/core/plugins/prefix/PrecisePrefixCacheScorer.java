package dev.homing.core.plugins.prefix;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import dev.homing.core.plugins.prefix.precise.PreciseScores;
import java.util.List;

/**
 * llm-d's {@code precise-prefix-cache-scorer}: each pod's tier-weighted longest held prefix, min-max normalised over
 * the pods that hold any of it ({@code (s − min)/(max − min)}; all equal → 1.0); pods holding nothing score 0. When
 * the request fell back to approximate matching, the approximate share of blocks held is used instead.
 * Homing's {@code prefix-cache-scorer} over a precise producer scores the share of the prompt held instead, which
 * does not throw away how much a second-best pod holds.
 */
public final class PrecisePrefixCacheScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "precise-prefix-cache-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new PrecisePrefixCacheScorer(name))
            .pairedBy(PrefixProducerPairing.PRECISE);

    public PrecisePrefixCacheScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        PreciseScores precise = cycle.get(PreciseScores.KEY);
        if (precise == null) {
            return PrefixCacheScorer.shares(cycle, candidates);
        }
        double[] scores = new double[candidates.size()];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (EndpointState e : candidates) {
            double s = precise.of(e);
            if (s > 0) {
                min = Math.min(min, s);
                max = Math.max(max, s);
            }
        }
        for (int i = 0; i < scores.length; i++) {
            double s = precise.of(candidates.get(i));
            if (s > 0) {
                scores[i] = max == min ? 1.0 : (s - min) / (max - min);
            }
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.AFFINITY;
    }
}
