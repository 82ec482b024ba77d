package dev.homing.bench.result;

/** A pod's load at one moment of a run, for load-over-time plots. */
public record LoadSample(long atNanos, String pod, int running, int waiting, double kvCacheUsage) {
}
