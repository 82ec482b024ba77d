package dev.homing.bench.soak;

import dev.homing.bench.dataplane.ProcessProbe;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * The router the soak runs against.
 *
 * @param api     its API port, where the load goes
 * @param metrics its Prometheus metrics (the admin port's {@code /metrics}), where its in-flight gauges are read
 * @param process its process, sampled from outside (heap after a full collection, threads, file descriptors)
 */
public record SoakTarget(InetSocketAddress api, URI metrics, ProcessProbe process) {
}
