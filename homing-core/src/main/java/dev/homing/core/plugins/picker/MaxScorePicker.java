package dev.homing.core.plugins.picker;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Picker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * llm-d's {@code max-score-picker}: the highest total wins; with {@code maxNumOfEndpoints} > 1 the next best follow
 * as fallbacks.
 *
 * <p>Ties rotate within the top tier (llm-d PR #2709): a counter walks the tied endpoints, so a burst of equal scores
 * is dealt round the tier instead of shuffled (a shuffle still lands runs on one pod) or always sent to the first.
 * Scores within {@link #TIE_EPSILON} of the best count as tied, so float noise does not break a tie.
 */
public final class MaxScorePicker extends NamedPlugin implements Picker {

    public static final String TYPE = "max-score-picker";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, MaxScorePicker::create)
            .defaultFor(Picker.class);
    static final double TIE_EPSILON = 1e-9;

    private final int maxNumOfEndpoints;
    private final AtomicLong rotation = new AtomicLong();

    /** Parameters: {@code maxNumOfEndpoints} (1). */
    static MaxScorePicker create(String name, Parameters p, PluginContext ctx) {
        return new MaxScorePicker(name, p.integer("maxNumOfEndpoints", 1));
    }

    public MaxScorePicker(String name, int maxNumOfEndpoints) {
        super(TYPE, name);
        if (maxNumOfEndpoints <= 0) {
            throw new PluginConfigException("parameter 'maxNumOfEndpoints' must be > 0, got " + maxNumOfEndpoints);
        }
        this.maxNumOfEndpoints = maxNumOfEndpoints;
    }

    @Override
    public List<EndpointState> pick(Cycle cycle, List<EndpointState> candidates, double[] totals) {
        int n = candidates.size();
        double best = Double.NEGATIVE_INFINITY;
        for (double t : totals) {
            best = Math.max(best, t);
        }
        List<Integer> tier = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            (totals[i] >= best - TIE_EPSILON ? tier : rest).add(i);
        }
        long turn = cycle.isDryRun() ? rotation.get() : rotation.getAndIncrement();
        int start = (int) Math.floorMod(turn, (long) tier.size());
        List<EndpointState> out = new ArrayList<>(Math.min(n, maxNumOfEndpoints));
        for (int k = 0; k < tier.size() && out.size() < maxNumOfEndpoints; k++) {
            out.add(candidates.get(tier.get((start + k) % tier.size())));
        }
        if (out.size() < maxNumOfEndpoints) {
            rest.sort(Comparator.comparingDouble((Integer i) -> -totals[i]).thenComparingInt(i -> i));
            for (int i : rest) {
                if (out.size() == maxNumOfEndpoints) {
                    break;
                }
                out.add(candidates.get(i));
            }
        }
        return out;
    }
}
