package dev.homing.core.plugins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** Parameters, labelled pools, contexts and results for plugin tests. */
public final class PluginFixtures {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PluginFixtures() {
    }

    /** Parameters from JSON text, single quotes allowed for readability. */
    public static Parameters params(String json) {
        try {
            return Parameters.of(JSON.readTree(json.replace('\'', '"')));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static PluginContext context() {
        return context(new SplittableRandom(1));
    }

    public static PluginContext context(RandomGenerator random) {
        return new PluginContext(new FakeTicker(), random, new EndpointPool());
    }

    /** A context in which {@code plugins} already exist, by name. */
    public static PluginContext context(Map<String, Plugin> plugins) {
        return new PluginContext(new FakeTicker(), new SplittableRandom(1), new EndpointPool())
                .withPlugins(name -> Optional.ofNullable(plugins.get(name)));
    }

    /** An endpoint on 10.0.0.{i}:8000 with labels given as key, value, key, value... */
    public static Endpoint endpoint(String name, int i, String... labels) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int k = 0; k < labels.length; k += 2) {
            map.put(labels[k], labels[k + 1]);
        }
        return new Endpoint(name, "10.0.0." + i, 8000, map);
    }

    public static EndpointPool pool(Endpoint... endpoints) {
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(endpoints));
        return pool;
    }

    public static Cycle cycle(EndpointPool pool, InferenceRequest request) {
        return new Cycle(request, pool.snapshot(), 0);
    }

    public static Cycle cycle(EndpointPool pool) {
        return cycle(pool, Requests.completion("hello"));
    }

    public static List<String> names(List<EndpointState> endpoints) {
        List<String> out = new ArrayList<>();
        for (EndpointState e : endpoints) {
            out.add(e.name());
        }
        return out;
    }

    /** The result of a profile that picked {@code targets} among them. */
    public static ProfileResult result(String profile, EndpointState... targets) {
        return new ProfileResult(profile, List.of(), List.of(targets), List.of(), new double[targets.length],
                List.of(targets));
    }

    public static SchedulingResult scheduling(String primary, ProfileResult... results) {
        Map<String, ProfileResult> map = new LinkedHashMap<>();
        for (ProfileResult r : results) {
            map.put(r.profile(), r);
        }
        return new SchedulingResult(map, primary);
    }
}
