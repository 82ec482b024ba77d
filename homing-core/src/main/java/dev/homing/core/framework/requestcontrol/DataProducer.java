package dev.homing.core.framework.requestcontrol;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;
import java.util.List;

/** Computes per-request, per-endpoint data before scheduling (e.g. prefix matches) and puts it in the cycle. */
public interface DataProducer extends Plugin {

    /**
     * Work that depends only on the request (hashing the prompt, tokenising). Runs before the decision lock is taken,
     * concurrently with other requests' decisions, so that expensive work does not serialise.
     */
    default void prepare(Cycle cycle) {
    }

    /** Work that reads shared state the previous decision may have just changed. Runs under the decision lock. */
    void produce(Cycle cycle, List<EndpointState> candidates);
}
