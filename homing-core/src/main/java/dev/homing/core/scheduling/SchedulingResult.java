package dev.homing.core.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** All profile results of one cycle and which of them decides where the request goes. */
public record SchedulingResult(Map<String, ProfileResult> profiles, String primaryProfile) {

    public SchedulingResult {
        profiles = Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
        if (!profiles.containsKey(primaryProfile)) {
            throw new IllegalArgumentException("primary profile " + primaryProfile + " has no result");
        }
    }

    public ProfileResult primary() {
        return profiles.get(primaryProfile);
    }

    /** Where the request goes. */
    public EndpointState target() {
        return primary().target();
    }

    public ProfileResult profile(String name) {
        return profiles.get(name);
    }
}
