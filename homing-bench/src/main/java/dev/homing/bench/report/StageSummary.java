package dev.homing.bench.report;

import dev.homing.bench.result.Summary;

/**
 * One load stage (a step of the QPS ladder) of a run, summarised on its own: the points of the against-load plots.
 *
 * @param offeredQps the stage's offered load in requests/s; 0 for closed loop
 */
public record StageSummary(int stage, double offeredQps, Summary summary) {
}
