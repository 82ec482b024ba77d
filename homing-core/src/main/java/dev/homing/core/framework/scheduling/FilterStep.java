package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.List;

/**
 * One filter's effect in one profile run: which endpoints it kept. Holds the filter's own (immutable) result, so a
 * decision pays nothing for it until somebody asks for the names.
 */
public record FilterStep(String name, String type, List<EndpointState> kept) {
    public FilterStep {
        kept = List.copyOf(kept);
    }

    public List<String> keptNames() {
        return kept.stream().map(EndpointState::name).toList();
    }
}
