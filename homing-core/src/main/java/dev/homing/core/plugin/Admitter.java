package dev.homing.core.plugin;

import dev.homing.core.scheduling.Cycle;
import dev.homing.core.scheduling.SchedulingException;

/** May refuse a request before it is scheduled (saturation, SLOs). All admitters must pass. */
public interface Admitter extends Plugin {
    void admit(Cycle cycle) throws SchedulingException;
}
