package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code latency-scorer}. In llm-d it scores SLO headroom from a latency-predictor sidecar's TTFT/TPOT
 * predictions, and falls back to a composite of cache room, queue and prefix when there are no predictions (sidecar
 * down or timed out). Homing has no latency predictor, so it always scores that fallback:
 * {@code round(100 · (wKV·(1 − kv) + wQ·(maxQ − q)/maxQ + wP·prefixRatio)) / 100} with the composite weights
 * normalised to sum 1 ({@code (maxQ − q)/maxQ} is 1 when no candidate queues; all weights 0 means KV only).
 *
 * <p>The prediction parameters ({@code ttftWeight} 0.8, {@code tpotWeight} 0.2, {@code headroomSelectionStrategy}
 * least|most) are read and checked so llm-d configs load, and have no effect here.
 */
public final class LatencyScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "latency-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, LatencyScorer::create);
    private static final int W_MAX = 100;

    private final double kvWeight;
    private final double queueWeight;
    private final double prefixWeight;

    public LatencyScorer(String name, double compositeKVWeight, double compositeQueueWeight,
                         double compositePrefixWeight) {
        super(TYPE, name);
        nonNegative("compositeKVWeight", compositeKVWeight);
        nonNegative("compositeQueueWeight", compositeQueueWeight);
        nonNegative("compositePrefixWeight", compositePrefixWeight);
        double sum = compositeKVWeight + compositeQueueWeight + compositePrefixWeight;
        if (sum <= 0) {
            this.kvWeight = 1;
            this.queueWeight = 0;
            this.prefixWeight = 0;
        } else {
            this.kvWeight = compositeKVWeight / sum;
            this.queueWeight = compositeQueueWeight / sum;
            this.prefixWeight = compositePrefixWeight / sum;
        }
    }

    static LatencyScorer create(String name, Parameters p, PluginContext ctx) {
        nonNegative("ttftWeight", p.number("ttftWeight", 0.8));
        nonNegative("tpotWeight", p.number("tpotWeight", 0.2));
        String strategy = p.string("headroomSelectionStrategy", "least");
        if (!strategy.equals("least") && !strategy.equals("most")) {
            throw new PluginConfigException("parameter 'headroomSelectionStrategy' must be 'least' or 'most', got '"
                    + strategy + "'");
        }
        return new LatencyScorer(name, p.number("compositeKVWeight", 1), p.number("compositeQueueWeight", 1),
                p.number("compositePrefixWeight", 1));
    }

    private static void nonNegative(String parameter, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new PluginConfigException("parameter '" + parameter + "' must be a finite number >= 0, got " + value);
        }
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        int maxQ = 0;
        for (EndpointState e : candidates) {
            maxQ = Math.max(maxQ, e.waitingQueueSize());
        }
        PrefixMatch match = cycle.get(PrefixMatch.KEY);
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            EndpointState e = candidates.get(i);
            double relQueue = maxQ > 0 ? (double) (maxQ - e.waitingQueueSize()) / maxQ : 1.0;
            double kvFree = 1.0 - e.kvCacheUsage();
            double prefix = match == null ? 0 : match.ratio(e);
            double composite = kvWeight * kvFree + queueWeight * relQueue + prefixWeight * prefix;
            scores[i] = (double) Math.round(W_MAX * composite) / W_MAX;
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.BALANCE;
    }
}
