package dev.homing.core.director;

import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.Scheduler;
import java.util.List;
import java.util.Objects;

/**
 * A resolved configuration: the scheduler and every request-control plugin, in run order. Immutable; a config reload
 * builds a new one and swaps it in whole.
 *
 * @param saturationDetector the pool's saturation detector, or null for none (then nothing is shed)
 * @param flowControlled     requests wait in the host's flow-control queues before they reach the director (feature
 *                           gate {@code flowControl}); otherwise the director sheds sheddable requests from a
 *                           saturated pool itself (llm-d's legacy admission)
 */
public record RoutingPolicy(Scheduler scheduler, List<DataProducer> producers, List<Admitter> admitters,
                            List<PreRequest> preRequests, List<Rerouted> rerouted,
                            List<ResponseHooks> responseHooks, SaturationDetector saturationDetector,
                            boolean flowControlled) {

    public RoutingPolicy(Scheduler scheduler, List<DataProducer> producers, List<Admitter> admitters,
                         List<PreRequest> preRequests, List<Rerouted> rerouted, List<ResponseHooks> responseHooks) {
        this(scheduler, producers, admitters, preRequests, rerouted, responseHooks, null, false);
    }

    /** The same policy with other response hooks. */
    public RoutingPolicy withResponseHooks(List<ResponseHooks> hooks) {
        return new RoutingPolicy(scheduler, producers, admitters, preRequests, rerouted, hooks, saturationDetector,
                flowControlled);
    }

    public RoutingPolicy {
        Objects.requireNonNull(scheduler, "scheduler");
        producers = List.copyOf(producers);
        admitters = List.copyOf(admitters);
        preRequests = List.copyOf(preRequests);
        rerouted = List.copyOf(rerouted);
        responseHooks = List.copyOf(responseHooks);
    }
}
