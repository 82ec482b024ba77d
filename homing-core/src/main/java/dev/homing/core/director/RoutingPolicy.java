package dev.homing.core.director;

import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Scheduler;
import java.util.List;
import java.util.Objects;

/**
 * A resolved configuration: the scheduler and every request-control plugin, in run order. Immutable; a config reload
 * builds a new one and swaps it in whole.
 */
public record RoutingPolicy(Scheduler scheduler, List<DataProducer> producers, List<Admitter> admitters,
                            List<PreRequest> preRequests, List<Rerouted> rerouted,
                            List<ResponseHooks> responseHooks) {
    public RoutingPolicy {
        Objects.requireNonNull(scheduler, "scheduler");
        producers = List.copyOf(producers);
        admitters = List.copyOf(admitters);
        preRequests = List.copyOf(preRequests);
        rerouted = List.copyOf(rerouted);
        responseHooks = List.copyOf(responseHooks);
    }
}
