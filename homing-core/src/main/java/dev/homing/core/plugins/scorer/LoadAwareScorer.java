package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code load-aware-scorer}: an empty waiting queue scores 0.5, a queue of q scores
 * {@code 0.5 · (1 − min(q, threshold)/threshold)}, so the range is 0..0.5 (llm-d keeps the upper half for endpoints
 * with spare capacity it cannot see yet). {@code threshold} defaults to 128. The queue read is the scraped one plus
 * requests sent since that scrape ({@link EndpointState#waitingQueueSize()}).
 */
public final class LoadAwareScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "load-aware-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, LoadAwareScorer::create);
    public static final int DEFAULT_THRESHOLD = 128;

    private final double threshold;

    /** Parameters: {@code threshold} ({@value #DEFAULT_THRESHOLD}). */
    static LoadAwareScorer create(String name, Parameters p, PluginContext ctx) {
        return new LoadAwareScorer(name, p.integer("threshold", DEFAULT_THRESHOLD));
    }

    public LoadAwareScorer(String name, int threshold) {
        super(TYPE, name);
        if (threshold <= 0) {
            throw new PluginConfigException("parameter 'threshold' must be > 0, got " + threshold);
        }
        this.threshold = threshold;
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            int q = candidates.get(i).waitingQueueSize();
            scores[i] = q == 0 ? 0.5 : 0.5 * (1.0 - Math.min(q, threshold) / threshold);
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
