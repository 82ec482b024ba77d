package dev.homing.router.metrics;

import dev.homing.core.flowcontrol.FlowListener;
import dev.homing.core.flowcontrol.FlowStat;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * llm-d's flow-control metrics ({@code pkg/epp/metrics/metrics.go}, llm-d-inference-scheduler 13383090): how long
 * requests waited and how each left, how long dispatch cycles and enqueues take, and what waits now per flow. Names,
 * label names and buckets as llm-d's; the queue gauges carry no model labels, for a flow's queue may hold requests of
 * several models (llm-d labels them by the flow's model; empty here would mislead).
 *
 * <p>Fairness ids are the clients' to choose, and a histogram keeps a series per label value for good: past the first
 * {@link #MAX_FAIRNESS_IDS} ids seen, the histograms count further ones under {@code fairness_id="other"}, so a client
 * that invents an id per request cannot grow the router's memory without bound (llm-d's can).
 */
public final class FlowMetrics implements FlowListener {

    private static final double[] QUEUE_BUCKETS = {0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
            1.0, 2.5, 5.0, 10.0, 30.0, 60.0};
    private static final double[] CYCLE_BUCKETS = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
            0.1};

    static final int MAX_FAIRNESS_IDS = 1000;
    static final String OTHER = "other";

    private final String poolName;
    private final Set<String> fairnessIds = ConcurrentHashMap.newKeySet();
    private final Histogram queueDuration;
    private final Histogram cycleDuration;
    private final Histogram enqueueDuration;

    FlowMetrics(PrometheusRegistry registry, String poolName, Supplier<List<FlowStat>> flows) {
        this.poolName = poolName;
        queueDuration = Histogram.builder().name("inference_extension_flow_control_request_queue_duration_seconds")
                .help("Distribution of total time requests spend in the Flow Control layer (from enqueue to final"
                        + " outcome).")
                .labelNames("fairness_id", "priority", "outcome", "inference_pool", "model_name", "target_model_name")
                .classicUpperBounds(QUEUE_BUCKETS).classicOnly().register(registry);
        cycleDuration = Histogram.builder().name("inference_extension_flow_control_dispatch_cycle_duration_seconds")
                .help("Distribution of the time taken for each dispatch cycle in the Flow Control layer.")
                .classicUpperBounds(CYCLE_BUCKETS).classicOnly().register(registry);
        enqueueDuration = Histogram.builder().name("inference_extension_flow_control_request_enqueue_duration_seconds")
                .help("Distribution of the time taken to enqueue requests by the Flow Control layer.")
                .labelNames("fairness_id", "priority", "outcome")
                .classicUpperBounds(CYCLE_BUCKETS).classicOnly().register(registry);
        GaugeWithCallback.builder().name("inference_extension_flow_control_queue_size")
                .help("Current number of requests actively held in the Flow Control queue.")
                .labelNames("fairness_id", "priority", "inference_pool")
                .callback(cb -> flows.get().forEach(f -> cb.call(f.requests(), f.fairnessId(),
                        Integer.toString(f.priority()), poolName)))
                .register(registry);
        GaugeWithCallback.builder().name("inference_extension_flow_control_queue_bytes")
                .help("Current number of bytes associated with requests actively held in the Flow Control queue.")
                .labelNames("fairness_id", "priority", "inference_pool")
                .callback(cb -> flows.get().forEach(f -> cb.call(f.bytes(), f.fairnessId(),
                        Integer.toString(f.priority()), poolName)))
                .register(registry);
    }

    @Override
    public void left(QueuedRequest request, String outcome, long queuedNanos) {
        var r = request.request();
        queueDuration.labelValues(label(r.fairnessId()), Integer.toString(r.priority()), outcome, poolName,
                r.model() == null ? "" : r.model(), r.targetModel() == null ? "" : r.targetModel())
                .observe(queuedNanos / 1e9);
    }

    @Override
    public void cycle(long nanos) {
        cycleDuration.observe(nanos / 1e9);
    }

    /** An enqueue took {@code nanos} and ended as {@code outcome} ({@code Queued}, or how it left at once). */
    public void enqueued(String fairnessId, int priority, String outcome, long nanos) {
        enqueueDuration.labelValues(label(fairnessId), Integer.toString(priority), outcome).observe(nanos / 1e9);
    }

    /** The id as a label value: itself while fewer than {@link #MAX_FAIRNESS_IDS} have been seen, else "other". */
    String label(String fairnessId) {
        if (fairnessIds.contains(fairnessId)) {
            return fairnessId;
        }
        if (fairnessIds.size() < MAX_FAIRNESS_IDS && fairnessIds.add(fairnessId)) {
            return fairnessId;
        }
        return fairnessIds.contains(fairnessId) ? fairnessId : OTHER;
    }
}
