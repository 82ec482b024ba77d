package dev.homing.core.plugins.prefix;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code prefix-cache-scorer}: the share of the prompt's blocks an endpoint holds, from the
 * {@link PrefixMatch} a prefix producer wrote; 0 when there is none or the prompt has no blocks. Stateless.
 */
public final class PrefixCacheScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "prefix-cache-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new PrefixCacheScorer(name))
            .pairedBy(PrefixProducerPairing.APPROXIMATE);

    public PrefixCacheScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        return shares(cycle, candidates);
    }

    /** Each candidate's share of the prompt's blocks, from the cycle's {@link PrefixMatch}; zeros without one. */
    public static double[] shares(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        PrefixMatch match = cycle.get(PrefixMatch.KEY);
        if (match == null) {
            return scores;
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = match.ratio(candidates.get(i));
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.AFFINITY;
    }
}
