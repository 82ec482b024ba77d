package dev.homing.core.framework.requestcontrol;

import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;

/**
 * Runs after the pick, under the decision lock, before the request is forwarded: records what the pick implies
 * (prefix ownership, newcomer placement) so the very next decision sees it.
 */
public interface PreRequest extends Plugin {
    void preRequest(Cycle cycle, SchedulingResult result);
}
