package dev.homing.router.metrics;

import dev.homing.router.precise.events.KvEventsObserver;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** What the KV-event subscribers report as they feed the precise indexes: {@code homing_kv_events_*}. */
public final class KvEventMetrics implements KvEventsObserver {

    private final Counter batches;
    private final Counter applied;
    private final Counter skipped;
    private final Counter gaps;
    private final Counter lost;
    private final Counter replays;
    private final Counter restarts;
    private final Counter malformed;
    private final Counter unknownPods;

    KvEventMetrics(PrometheusRegistry registry) {
        batches = Counter.builder().name("homing_kv_events_batches_total")
                .help("KV-event batches taken in sequence from a pod's publisher, live or replayed.")
                .labelNames("pod").register(registry);
        applied = Counter.builder().name("homing_kv_events_applied_total")
                .help("KV-cache events applied to the precise index.").labelNames("pod").register(registry);
        skipped = Counter.builder().name("homing_kv_events_skipped_total")
                .help("KV-cache events left out: unknown_type (a newer engine's), unresolved (parent block never seen, "
                        + "other block size), out_of_order (a batch given up as lost that came late).")
                .labelNames("reason").register(registry);
        gaps = Counter.builder().name("homing_kv_events_gaps_total")
                .help("Jumps in a publisher's sequence numbers on the live stream.").labelNames("pod").register(registry);
        lost = Counter.builder().name("homing_kv_events_batches_lost_total")
                .help("Batches missing from a publisher's sequence that no replay recovered; each loss drops the pod's "
                        + "index entries, rebuilt from its next events.").labelNames("pod").register(registry);
        replays = Counter.builder().name("homing_kv_events_replays_total")
                .help("Replays asked of a pod's replay socket, by outcome: complete (end marker reached) or failed.")
                .labelNames("pod", "result").register(registry);
        restarts = Counter.builder().name("homing_kv_events_restarts_total")
                .help("Publishers that restarted, seen as a sequence that went back with other content, or as a dialled "
                        + "publisher's connection ending after it sent a batch; the pod's entries were dropped.")
                .labelNames("pod").register(registry);
        malformed = Counter.builder().name("homing_kv_events_malformed_total")
                .help("Messages that are not KV-event batches (frames, sequence or payload), skipped; pod empty when "
                        + "unknown.").labelNames("pod").register(registry);
        unknownPods = Counter.builder().name("homing_kv_events_unknown_pod_total")
                .help("Messages at a centralized endpoint whose topic names no endpoint of the pool, dropped.")
                .register(registry);
    }

    /**
     * Drops a pod's series once it left the pool: pods come and go, their series must not pile up. (A batch the
     * pod's subscriber reports while it is being stopped may start a series again; it is dropped no more, but stays
     * one series per pod that left.)
     */
    void forget(String pod) {
        for (Counter byPod : new Counter[]{batches, applied, gaps, lost, restarts, malformed}) {
            byPod.remove(pod);
        }
        replays.removeIf(labels -> labels.get(0).equals(pod)); // every result of the pod
    }

    @Override
    public void batchTaken(String pod) {
        batches.labelValues(pod).inc();
    }

    @Override
    public void eventsApplied(String pod, int events) {
        applied.labelValues(pod).inc(events);
    }

    @Override
    public void eventsSkipped(String reason, int events) {
        skipped.labelValues(reason).inc(events);
    }

    @Override
    public void gap(String pod, long missing) {
        gaps.labelValues(pod).inc();
    }

    @Override
    public void batchesLost(String pod, long batches) {
        lost.labelValues(pod).inc(batches);
    }

    @Override
    public void replay(String pod, boolean complete) {
        replays.labelValues(pod, complete ? "complete" : "failed").inc();
    }

    @Override
    public void restart(String pod) {
        restarts.labelValues(pod).inc();
    }

    @Override
    public void malformed(String pod) {
        malformed.labelValues(pod).inc();
    }

    @Override
    public void unknownPod(String podId) {
        unknownPods.inc();
    }
}
