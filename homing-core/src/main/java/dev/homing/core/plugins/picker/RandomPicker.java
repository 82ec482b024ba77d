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
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * llm-d's {@code random-picker}: ignores the scores, shuffles the candidates (Fisher–Yates, from the injected random)
 * and returns the first {@code maxNumOfEndpoints} (default 1).
 */
public final class RandomPicker extends NamedPlugin implements Picker {

    public static final String TYPE = "random-picker";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, RandomPicker::create);

    private final int maxNumOfEndpoints;
    private final RandomGenerator random;

    public RandomPicker(String name, int maxNumOfEndpoints, RandomGenerator random) {
        super(TYPE, name);
        if (maxNumOfEndpoints <= 0) {
            throw new PluginConfigException("parameter 'maxNumOfEndpoints' must be > 0, got " + maxNumOfEndpoints);
        }
        this.maxNumOfEndpoints = maxNumOfEndpoints;
        this.random = Objects.requireNonNull(random, "random");
    }

    static RandomPicker create(String name, Parameters p, PluginContext ctx) {
        return new RandomPicker(name, p.integer("maxNumOfEndpoints", 1), ctx.random());
    }

    @Override
    public List<EndpointState> pick(Cycle cycle, List<EndpointState> candidates, double[] totals) {
        return shuffledTop(candidates, maxNumOfEndpoints, CycleRandom.of(cycle, random));
    }

    /** The first {@code k} of a uniform shuffle: for i from n−1 down to 1, swap i with {@code nextInt(i + 1)}. */
    static List<EndpointState> shuffledTop(List<EndpointState> candidates, int k, RandomGenerator random) {
        List<EndpointState> order = new ArrayList<>(candidates);
        for (int i = order.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            EndpointState t = order.get(i);
            order.set(i, order.get(j));
            order.set(j, t);
        }
        return List.copyOf(order.subList(0, Math.min(k, order.size())));
    }
}
