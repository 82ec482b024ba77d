package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;

/**
 * Decides whether a disaggregated stage (remote prefill, remote encode) should run for a request, once its decode
 * endpoint is known (llm-d's deciderPlugin). Profile handlers name deciders by plugin name.
 */
public interface PdDecider extends Plugin {

    /** Must not change shared state: it also runs in dry runs. */
    boolean disaggregate(Cycle cycle, EndpointState decodeTarget);
}
