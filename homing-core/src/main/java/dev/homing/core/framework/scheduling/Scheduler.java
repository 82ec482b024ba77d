package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a profile handler and its profiles over the candidates (llm-d's scheduler): the handler picks profiles in
 * rounds until it picks none, then turns the results into one {@link SchedulingResult}. Stateless; plugins hold state.
 */
public final class Scheduler {

    private final ProfileHandler handler;
    private final Map<String, SchedulerProfile> profiles;

    public Scheduler(ProfileHandler handler, List<SchedulerProfile> profiles) {
        this.handler = Objects.requireNonNull(handler, "handler");
        Map<String, SchedulerProfile> byName = new LinkedHashMap<>();
        for (SchedulerProfile p : profiles) {
            if (byName.put(p.name(), p) != null) {
                throw new IllegalArgumentException("duplicate profile " + p.name());
            }
        }
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("a scheduler needs at least one profile");
        }
        this.profiles = Collections.unmodifiableMap(byName);
    }

    public ProfileHandler handler() {
        return handler;
    }

    public Map<String, SchedulerProfile> profiles() {
        return profiles;
    }

    public SchedulingResult schedule(Cycle cycle, List<EndpointState> candidates) throws SchedulingException {
        return schedule(cycle, candidates, null);
    }

    /**
     * As {@link #schedule(Cycle, List)}, the primary profile choosing {@code pinned} (one of the candidates) alone,
     * when not null: the other profiles run over every candidate. The handler names the primary profile
     * ({@link ProfileHandler#primaryProfile}); when it cannot, every profile is held to {@code pinned}.
     */
    public SchedulingResult schedule(Cycle cycle, List<EndpointState> candidates, EndpointState pinned)
            throws SchedulingException {
        if (candidates.isEmpty()) {
            throw SchedulingException.noEndpoints("no endpoints available");
        }
        List<EndpointState> only = pinned == null ? null : List.of(pinned);
        String primary = only == null ? null : handler.primaryProfile(profiles);
        Map<String, ProfileResult> results = new LinkedHashMap<>();
        Map<String, ProfileResult> view = Collections.unmodifiableMap(results);
        Set<String> ran = new HashSet<>();
        SchedulingException firstFailure = null;
        // Each round runs at least one new profile, so the loop ends; the bound guards a handler that repeats itself.
        for (int round = 0; round <= profiles.size(); round++) {
            List<SchedulerProfile> next = new ArrayList<>(handler.pick(cycle, profiles, view));
            next.removeIf(p -> ran.contains(p.name()));
            if (next.isEmpty()) {
                if (results.isEmpty() && firstFailure != null) {
                    throw firstFailure;
                }
                return handler.processResults(cycle, view);
            }
            for (SchedulerProfile p : next) {
                ran.add(p.name());
                try {
                    boolean held = only != null && (primary == null || primary.equals(p.name()));
                    results.put(p.name(), p.run(cycle, held ? only : candidates));
                } catch (SchedulingException e) {
                    // As llm-d: a profile that finds nobody (a prefill stage, say) leaves no result; the handler
                    // decides what that means for the request.
                    if (firstFailure == null) {
                        firstFailure = e;
                    }
                }
            }
        }
        throw new IllegalStateException("profile handler " + handler.name() + " did not stop picking profiles");
    }
}
