package dev.homing.core.framework.requestcontrol;

import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingException;

/** May refuse a request before it is scheduled (saturation, SLOs). All admitters must pass. */
public interface Admitter extends Plugin {
    void admit(Cycle cycle) throws SchedulingException;
}
