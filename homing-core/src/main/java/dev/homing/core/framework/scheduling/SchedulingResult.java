package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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

    /**
     * This result with {@code served} first among the primary profile's targets (the other targets keep their order
     * after it): what the hooks that run later see when the gateway served the request elsewhere.
     */
    public SchedulingResult servedBy(EndpointState served) {
        ProfileResult p = primary();
        List<EndpointState> targets = new ArrayList<>(p.targets().size() + 1);
        targets.add(served);
        for (EndpointState t : p.targets()) {
            if (!t.name().equals(served.name())) {
                targets.add(t);
            }
        }
        Map<String, ProfileResult> all = new LinkedHashMap<>(profiles);
        all.put(primaryProfile, new ProfileResult(p.profile(), p.filters(), p.candidates(), p.scores(), p.totals(),
                targets));
        return new SchedulingResult(all, primaryProfile, prefillProfile);
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
