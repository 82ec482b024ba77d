package dev.homing.core.framework.scheduling;

import dev.homing.core.framework.plugin.Plugin;
import java.util.List;
import java.util.Map;

/** Decides which profiles run, in rounds, and which result is primary (llm-d's ProfileHandler). */
public interface ProfileHandler extends Plugin {
    /** The profiles to run next given the results so far; empty ends the cycle. */
    List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles, Map<String, ProfileResult> results);

    SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException;

    /**
     * The profile whose result will be primary, named before any profile runs, or null when the handler cannot say.
     * A request that only one endpoint can answer (it continues a response stored there) restricts that profile
     * alone, so that the others (a P/D config's prefill) still choose among their usual candidates; null restricts
     * every profile. By default the only profile, when there is one.
     */
    default String primaryProfile(Map<String, SchedulerProfile> profiles) {
        return profiles.size() == 1 ? profiles.keySet().iterator().next() : null;
    }
}
