package dev.homing.core.flowcontrol;

/** One flow's queue now: what waits under a fairness id at a priority. */
public record FlowStat(String fairnessId, int priority, int requests, long bytes) {
}
