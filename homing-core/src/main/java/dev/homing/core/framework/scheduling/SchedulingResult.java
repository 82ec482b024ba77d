package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * All profile results of one cycle, which of them decides where the request goes, and which (if any) chose where its
 * prompt is prefilled in disaggregated serving: that endpoint computes the prompt's KV too, so it is credited load
 * and recorded as holding the prefix.
 *
 * @param prefillProfile the profile whose target prefills remotely, or null
 */
public record SchedulingResult(Map<String, ProfileResult> profiles, String primaryProfile, String prefillProfile) {

    public SchedulingResult {
        profiles = Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
        if (!profiles.containsKey(primaryProfile)) {
            throw new IllegalArgumentException("primary profile " + primaryProfile + " has no result");
        }
        if (prefillProfile != null && (prefillProfile.equals(primaryProfile) || !profiles.containsKey(prefillProfile))) {
            prefillProfile = null;
        }
    }

    public SchedulingResult(Map<String, ProfileResult> profiles, String primaryProfile) {
        this(profiles, primaryProfile, null);
    }

    /**
     * Where the prompt is prefilled when that is not the target itself, or null: a prefill profile that chose the
     * decode endpoint means one request there, so it is credited and recorded once.
     */
    public EndpointState prefillTarget() {
        if (prefillProfile == null) {
            return null;
        }
        EndpointState prefill = profiles.get(prefillProfile).target();
        return prefill == target() ? null : prefill;
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
