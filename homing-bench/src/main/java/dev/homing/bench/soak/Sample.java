package dev.homing.bench.soak;

import java.util.List;

/**
 * One row of the soak: the router as sampled at the end of an interval, and what the clients met during it.
 *
 * @param label         the time from the start of the load ({@code m:ss}), {@code start} before it, {@code rest} after
 * @param elapsedMillis when it was taken, from the start of the load (negative before it)
 * @param counts        requests sent in the interval, and those that ended in it by how they ended
 * @param p50Millis     median time of the requests answered in the interval, or null when none was
 * @param p99Millis     their 99th percentile, or null
 * @param loadAverage   the machine's load average over the last minute ({@code /proc/loadavg}), or null: how much
 *                      else wanted the CPUs while the interval ran, for reading its numbers
 * @param faults        what was done to the pods in the interval
 */
public record Sample(String label, long elapsedMillis, RouterState router, Counts counts, Double p50Millis,
                     Double p99Millis, Double loadAverage, List<FaultEvent> faults) {

    public Sample {
        faults = List.copyOf(faults);
    }
}
