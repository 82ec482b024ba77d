package dev.homing.core.plugins.picker;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleRandom;
import dev.homing.core.framework.scheduling.Picker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * llm-d's {@code weighted-random-picker}: picks with probability proportional to the total score, by A-Res weighted
 * reservoir sampling (Efraimidis–Spirakis): each candidate with score s &gt; 0 draws u in (0, 1) and gets the key
 * {@code u^(1/s)}; the {@code maxNumOfEndpoints} (default 1) largest keys win. A score ≤ 0 gets key 0 (chosen only to
 * fill the list); when no score is &gt; 0 the pick is uniform, as {@code random-picker}'s.
 */
public final class WeightedRandomPicker extends NamedPlugin implements Picker {

    public static final String TYPE = "weighted-random-picker";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, WeightedRandomPicker::create);
    /** Stands in for u = 0, whose key would tie with the zero scores'. */
    static final double MIN_U = 1e-10;

    private final int maxNumOfEndpoints;
    private final RandomGenerator random;

    public WeightedRandomPicker(String name, int maxNumOfEndpoints, RandomGenerator random) {
        super(TYPE, name);
        if (maxNumOfEndpoints <= 0) {
            throw new PluginConfigException("parameter 'maxNumOfEndpoints' must be > 0, got " + maxNumOfEndpoints);
        }
        this.maxNumOfEndpoints = maxNumOfEndpoints;
        this.random = Objects.requireNonNull(random, "random");
    }

    static WeightedRandomPicker create(String name, Parameters p, PluginContext ctx) {
        return new WeightedRandomPicker(name, p.integer("maxNumOfEndpoints", 1), ctx.random());
    }

    @Override
    public List<EndpointState> pick(Cycle cycle, List<EndpointState> candidates, double[] totals) {
        RandomGenerator r = CycleRandom.of(cycle, random);
        int n = candidates.size();
        boolean anyPositive = false;
        for (int i = 0; i < n; i++) {
            anyPositive |= totals[i] > 0;
        }
        if (!anyPositive) {
            return RandomPicker.shuffledTop(candidates, maxNumOfEndpoints, r);
        }
        double[] keys = new double[n];
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
            if (totals[i] > 0) {
                double u = r.nextDouble();
                keys[i] = Math.pow(u == 0 ? MIN_U : u, 1.0 / totals[i]);
            }
        }
        order.sort(Comparator.comparingDouble((Integer i) -> -keys[i])); // stable: equal keys keep candidate order
        List<EndpointState> out = new ArrayList<>(Math.min(n, maxNumOfEndpoints));
        for (int k = 0; k < n && out.size() < maxNumOfEndpoints; k++) {
            out.add(candidates.get(order.get(k)));
        }
        return out;
    }
}
