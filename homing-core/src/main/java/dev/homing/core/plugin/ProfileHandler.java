package dev.homing.core.plugin;

import dev.homing.core.scheduling.Cycle;
import dev.homing.core.scheduling.ProfileResult;
import dev.homing.core.scheduling.SchedulerProfile;
import dev.homing.core.scheduling.SchedulingException;
import dev.homing.core.scheduling.SchedulingResult;
import java.util.List;
import java.util.Map;

/** Decides which profiles run, in rounds, and which result is primary (llm-d's ProfileHandler). */
public interface ProfileHandler extends Plugin {
    /** The profiles to run next given the results so far; empty ends the cycle. */
    List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles, Map<String, ProfileResult> results);

    SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException;
}
