package dev.homing.bench.soak;

import dev.homing.bench.dataplane.ProcessProbe;
import dev.homing.protocol.metrics.MetricsFormatException;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.PrometheusTextParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the router from outside: its process (threads and file descriptors first, then its heap after a full
 * collection, which stops it for a moment) and its in-flight gauges from its Prometheus metrics. Each read of the
 * metrics is a connection of its own, closed after, so that no connection of the probe's is held open between
 * samples to be counted among the router's descriptors.
 */
final class RouterProbe {

    static final String IN_FLIGHT = "homing_endpoint_in_flight_requests";
    static final String RUNNING = "inference_objective_running_requests";
    static final String READY = "inference_pool_ready_pods";

    private final ProcessProbe process;
    private final URI metrics;

    RouterProbe(ProcessProbe process, URI metrics) {
        this.process = process;
        this.metrics = metrics;
    }

    /** The router's gauges of what is in flight: {@code [homing_endpoint_in_flight_requests, running]} summed. */
    double[] inFlight() throws IOException, InterruptedException {
        MetricsText text = metrics();
        if (!text.has(IN_FLIGHT) && !text.has(RUNNING)) {
            throw new IOException("no " + IN_FLIGHT + " nor " + RUNNING + " in " + metrics);
        }
        return new double[] {text.sum(IN_FLIGHT), text.sum(RUNNING)};
    }

    /** Pods whose metrics the router has read ({@code inference_pool_ready_pods}). */
    double readyPods() throws IOException, InterruptedException {
        return metrics().sum(READY);
    }

    private MetricsText metrics() throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET " + metrics + ": status " + r.statusCode());
            }
            return PrometheusTextParser.parse(r.body(), n -> n.equals(IN_FLIGHT) || n.equals(RUNNING)
                    || n.equals(READY));
        } catch (MetricsFormatException e) {
            throw new IOException("unreadable metrics at " + metrics + ": " + e.getMessage(), e);
        }
    }

    RouterState sample() throws InterruptedException {
        List<String> problems = new ArrayList<>();
        int threads = -1;
        int fds = -1;
        long rss = -1;
        try {
            threads = process.threads();
            fds = process.openFileDescriptors();
            rss = process.residentBytes();
        } catch (IOException e) {
            problems.add("/proc: " + e.getMessage());
        }
        double[] flight = {Double.NaN, Double.NaN};
        try {
            flight = inFlight();
        } catch (IOException e) {
            problems.add("metrics: " + e.getMessage());
        }
        long heap = -1;
        try {
            heap = process.heapUsedAfterGc();
        } catch (IOException e) {
            problems.add("heap: " + e.getMessage());
        }
        return new RouterState(heap, threads, fds, rss, flight[0], flight[1], String.join("; ", problems));
    }
}
