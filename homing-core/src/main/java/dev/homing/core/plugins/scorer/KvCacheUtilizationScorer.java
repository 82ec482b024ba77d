package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code kv-cache-utilization-scorer}: {@code 1 − KV-cache usage}, absolute (not normalised over the
 * candidates, as llm-d kept it). Usage is the scraped value plus blocks that requests sent since the scrape will fill.
 */
public final class KvCacheUtilizationScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "kv-cache-utilization-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new KvCacheUtilizationScorer(name))
            .alias("kv-cache-scorer"); // llm-d's older name

    public KvCacheUtilizationScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = 1.0 - candidates.get(i).kvCacheUsage();
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
