package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import java.util.List;

/** Chooses the target(s) from scored candidates; the first returned is where the request goes, the rest fallbacks. */
public interface Picker extends Plugin {
    /**
     * @param candidates non-empty
     * @param totals     weighted scores, indexed like {@code candidates}
     */
    List<EndpointState> pick(Cycle cycle, List<EndpointState> candidates, double[] totals);
}
