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
 * Homing's {@code queue-depth-scorer}: the waiting queue on an absolute scale, where one waiting request is noise.
 * <pre>
 *   score = 1 / (1 + max(0, q − 1) / halfAt)
 * </pre>
 * with q the scraped waiting requests plus those this router sent since ({@link EndpointState#waitingQueueSize()}).
 * 0 or 1 waiting scores 1; {@code 1 + halfAt} waiting (5 by default) scores 0.5; a long queue approaches 0.
 *
 * <p>Why not llm-d's {@code queue-scorer}: it normalises min-max over the candidates, so a queue that flickers between
 * 0 and 1 while a request waits for the next engine step (a scrape every 50 ms catches it half the time) swings a
 * pod's score from 1 to 0, a full weight's worth, and outweighs the signals that are exact. This scorer leaves that
 * flicker alone and still pushes back on a queue that is real: requests waiting for KV memory or a seat, which no
 * count of prefill tokens sees.
 */
public final class QueueDepthScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "queue-depth-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, QueueDepthScorer::create);

    private final double halfAt;

    /** Parameters: {@code halfAt} (4): waiting requests beyond the first at which the score is 0.5. */
    static QueueDepthScorer create(String name, Parameters p, PluginContext ctx) {
        return new QueueDepthScorer(name, p.number("halfAt", 4));
    }

    public QueueDepthScorer(String name, double halfAt) {
        super(TYPE, name);
        if (!(halfAt > 0) || Double.isInfinite(halfAt)) {
            throw new PluginConfigException("parameter 'halfAt' must be a number > 0, got " + halfAt);
        }
        this.halfAt = halfAt;
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            int q = candidates.get(i).waitingQueueSize();
            scores[i] = 1 / (1 + Math.max(0, q - 1) / halfAt);
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
