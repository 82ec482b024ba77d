package dev.homing.bench.live;

import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.workload.Workload;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Sends a workload to a live OpenAI-compatible server (Homing, a pod, nginx, another router) and records what each
 * request met: time to first token, end-to-end latency, output and cached tokens from the final usage event, the pod
 * from the response headers, and the status. Requests go at their arrival times (or, in closed loop, whenever one of
 * the {@code concurrency} slots frees), streamed; a multi-turn turn waits for its previous turn's answer, and a
 * session's turn with a gap ({@code WorkloadRequest#gapNanos}) that gap more, as its user would. Failures are
 * recorded, never thrown. Bounded twice: each request times out, and at the run's deadline nothing more is sent
 * and what is in flight is cut off.
 *
 * <p>Each record's arrival is when the request was actually sent, from the start of the run; status 0 means no
 * complete response (refused, timed out, cut off, or the stream broke). Load samples are empty in live mode.
 */
public final class LiveDriver {

    private final Duration requestTimeout;
    private final Duration deadline;
    private final Map<String, String> headers;

    /** Requests time out after 10 minutes; runs end after 2 hours. */
    public LiveDriver() {
        this(Duration.ofMinutes(10), Duration.ofHours(2));
    }

    public LiveDriver(Duration requestTimeout, Duration deadline) {
        this(requestTimeout, deadline, Map.of());
    }

    /** @param headers added to every request (an {@code Authorization} for a hosted router, say) */
    public LiveDriver(Duration requestTimeout, Duration deadline, Map<String, String> headers) {
        this.requestTimeout = positive(requestTimeout, "requestTimeout");
        this.deadline = positive(deadline, "deadline");
        this.headers = Map.copyOf(headers);
        HttpRequest.Builder probe = HttpRequest.newBuilder(URI.create("http://localhost/"));
        this.headers.forEach(probe::header); // a header the JDK refuses (Host, Connection) fails here, not mid-run
    }

    /**
     * Runs the workload against {@code baseUrl} ({@code http://host:port}, or ending in {@code /v1}) and returns
     * the records of the requests it sent, in workload order.
     */
    public PolicyRun run(URI baseUrl, Workload w, String policyLabel, ProgressListener progress) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        try (LiveRun run = new LiveRun(baseUrl, w, policyLabel, progress == null ? ProgressListener.SILENT : progress,
                requestTimeout, deadline, headers)) {
            return run.execute();
        }
    }

    private static Duration positive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return d;
    }
}
