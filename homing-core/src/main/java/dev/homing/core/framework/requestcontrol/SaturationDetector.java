package dev.homing.core.framework.requestcontrol;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import java.util.List;

/**
 * Says how close the pool is to saturation (llm-d's flow-control SaturationDetector). The router uses it to shed
 * sheddable requests (priority &lt; 0) when the pool is full and to report pool saturation; detectors are also filters
 * that drop endpoints past their own limit.
 */
public interface SaturationDetector extends Plugin {

    /**
     * Pool saturation: 0 idle, 1.0 at the ideal capacity, above 1.0 overloaded. An empty pool is saturated (1.0): there
     * is nowhere to send a request.
     *
     * @param nowNanos ticker time, to judge how old each endpoint's metrics are
     */
    double saturation(List<EndpointState> endpoints, long nowNanos);

    /** True when the endpoint is past the limit its filter applies (headroom included), or cannot be judged. */
    boolean saturated(EndpointState endpoint, long nowNanos);
}
