package dev.homing.core.plugins.profile;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.protocol.gateway.GatewayHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * llm-d's deprecated {@code data-parallel-profile-handler}: with vLLM data parallelism each rank of a pod listens on
 * its own port and is an endpoint of its own, but requests enter through the pod's sidecar on {@code primaryPort}
 * (8000). The single profile picks a rank; the request is sent to the same host on {@code primaryPort} with
 * {@value GatewayHeaders#DATA_PARALLEL_HOST_PORT}: the rank's {@code host:port}. (Istio 1.28.1 and later route to ranks natively.)
 */
public final class DataParallelProfileHandler extends NamedPlugin implements ProfileHandler {

    public static final String TYPE = "data-parallel-profile-handler";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, DataParallelProfileHandler::create);

    private final int primaryPort;

    public DataParallelProfileHandler(String name, int primaryPort) {
        super(TYPE, name);
        checkPort(primaryPort);
        this.primaryPort = primaryPort;
    }

    static DataParallelProfileHandler create(String name, Parameters p, PluginContext ctx) {
        return new DataParallelProfileHandler(name, p.integer("primaryPort", 8000));
    }

    static void checkPort(int port) {
        if (port < 1 || port > 65535) {
            throw new PluginConfigException("parameter 'primaryPort' must be between 1 and 65535, got " + port);
        }
    }

    @Override
    public List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles,
                                       Map<String, ProfileResult> results) {
        if (!results.isEmpty() || profiles.size() != 1) {
            return List.of(); // more than one profile is refused in processResults
        }
        return List.copyOf(profiles.values());
    }

    @Override
    public SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException {
        if (results.size() != 1) {
            throw new SchedulingException(500, TYPE + " '" + name() + "' needs exactly one scheduling profile");
        }
        Map.Entry<String, ProfileResult> only = results.entrySet().iterator().next();
        if (only.getValue().target() == null) {
            throw SchedulingException.exhausted("profile " + only.getKey() + " produced no target");
        }
        return new SchedulingResult(Map.of(only.getKey(), onPrimaryPort(cycle, only.getValue(), primaryPort)),
                only.getKey());
    }

    /** Sends the profile's targets to their hosts' primary port, naming the chosen rank in {@value GatewayHeaders#DATA_PARALLEL_HOST_PORT}. */
    static ProfileResult onPrimaryPort(Cycle cycle, ProfileResult r, int primaryPort) {
        cycle.upstreamHeaders().put(GatewayHeaders.DATA_PARALLEL_HOST_PORT, r.target().endpoint().address());
        List<EndpointState> targets = new ArrayList<>(r.targets().size());
        for (EndpointState t : r.targets()) {
            Endpoint e = t.endpoint();
            // Same index and load: the lease is still credited to the rank that will do the work.
            targets.add(new EndpointState(new Endpoint(e.name(), e.host(), primaryPort, e.labels()), t.index(),
                    t.metrics(), t.load(), t.creditUnreflected()));
        }
        return new ProfileResult(r.profile(), r.filters(), r.candidates(), r.scores(), r.totals(), targets);
    }
}
