package dev.homing.core.plugin;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.scheduling.Cycle;
import java.util.List;

/** Narrows the candidates. Filters run in order; the chain stops at the first empty result. */
public interface Filter extends Plugin {
    List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates);
}
