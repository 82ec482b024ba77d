package dev.homing.core.framework.scheduling;

/**
 * What one scorer said in one profile run, kept so every decision can be explained.
 *
 * @param scores clamped to [0,1], by candidate position in {@link ProfileResult#candidates()}
 */
public record ScoreBreakdown(String name, String type, double weight, double[] scores) {
}
