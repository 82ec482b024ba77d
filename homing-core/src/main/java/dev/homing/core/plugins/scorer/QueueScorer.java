package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code queue-scorer}: {@code (maxQ − q)/(maxQ − minQ)} over the candidates' waiting queues, 1.0 for all
 * when they are equal. The queue read is the scraped one plus requests sent since that scrape
 * ({@link EndpointState#waitingQueueSize()}).
 */
public final class QueueScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "queue-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new QueueScorer(name));

    public QueueScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        int[] q = new int[n];
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            q[i] = candidates.get(i).waitingQueueSize();
            min = Math.min(min, q[i]);
            max = Math.max(max, q[i]);
        }
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = max == min ? 1.0 : (double) (max - q[i]) / (max - min);
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
