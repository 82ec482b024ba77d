package dev.homing.core.director;

import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;

/** A scheduling decision and the cycle that made it (prefix matches and other data plugins produced), to explain it. */
public record Decision(Cycle cycle, SchedulingResult result) {
}
