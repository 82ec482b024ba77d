/**
 * {@code homing soak}: a router run for minutes under mixed streaming and non-streaming load while its pods are
 * killed and restarted, sampled from outside at intervals (heap after a full collection, threads, file descriptors,
 * its own in-flight gauges) with what the clients met in each interval (sent, answered, errors by status, lost, cut
 * short), then brought to rest, where nothing may be left in flight. {@link dev.homing.bench.soak.SoakRun} drives
 * it; the processes it runs against are given as a {@link dev.homing.bench.soak.SoakTarget} and a
 * {@link dev.homing.bench.soak.Fleet}, so this package starts none itself.
 */
package dev.homing.bench.soak;
