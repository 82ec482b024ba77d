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
 * llm-d's {@code active-request-scorer}: favours endpoints with fewer of this router's requests in flight. A count at
 * or below {@code idleThreshold} (default 0) scores 1.0; above it, {@code (maxCount − count)/maxCount · maxBusyScore}
 * (default 1.0) with {@code maxCount} the highest count among the candidates. The counts change at pick time and at
 * the end of each request, so they are never stale.
 */
public final class ActiveRequestScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "active-request-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ActiveRequestScorer::create);

    private final int idleThreshold;
    private final double maxBusyScore;

    /** Parameters: {@code idleThreshold} (0), {@code maxBusyScore} (1.0); the deprecated {@code requestTimeout} is ignored. */
    static ActiveRequestScorer create(String name, Parameters p, PluginContext ctx) {
        p.duration("requestTimeout", null); // deprecated in llm-d: requests are released when they end
        return new ActiveRequestScorer(name, p.integer("idleThreshold", 0), p.number("maxBusyScore", 1.0));
    }

    public ActiveRequestScorer(String name, int idleThreshold, double maxBusyScore) {
        super(TYPE, name);
        if (idleThreshold < 0) {
            throw new PluginConfigException("parameter 'idleThreshold' must be >= 0, got " + idleThreshold);
        }
        if (!(maxBusyScore >= 0 && maxBusyScore <= 1)) {
            throw new PluginConfigException("parameter 'maxBusyScore' must be in [0, 1], got " + maxBusyScore);
        }
        this.idleThreshold = idleThreshold;
        this.maxBusyScore = maxBusyScore;
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        int[] counts = new int[n];
        int max = 0;
        for (int i = 0; i < n; i++) {
            counts[i] = candidates.get(i).inFlightRequests();
            max = Math.max(max, counts[i]);
        }
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = counts[i] <= idleThreshold ? 1.0 : (double) (max - counts[i]) / max * maxBusyScore;
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
