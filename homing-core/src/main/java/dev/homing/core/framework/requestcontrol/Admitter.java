package dev.homing.core.framework.requestcontrol;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingException;
import java.util.List;

/** May refuse a request before it is scheduled (saturation, SLOs). All admitters must pass. */
public interface Admitter extends Plugin {

    /**
     * Throws to refuse the request.
     *
     * @param candidates the endpoints the request may go to, as llm-d's admitters are given them
     */
    void admit(Cycle cycle, List<EndpointState> candidates) throws SchedulingException;
}
