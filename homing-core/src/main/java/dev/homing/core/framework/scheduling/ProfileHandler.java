package dev.homing.core.framework.scheduling;

import dev.homing.core.framework.plugin.Plugin;
import java.util.List;
import java.util.Map;

/** Decides which profiles run, in rounds, and which result is primary (llm-d's ProfileHandler). */
public interface ProfileHandler extends Plugin {
    /** The profiles to run next given the results so far; empty ends the cycle. */
    List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles, Map<String, ProfileResult> results);

    SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException;
}
