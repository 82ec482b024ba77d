package dev.homing.router.precise.events;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.precise.KvEventFeed;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.EjectionWatch;
import dev.homing.router.fixtures.PreciseCluster;
import dev.homing.router.fixtures.SteadyLoad;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.kvevents.LiveFaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's fault suite: a pod publishing KV events (precise config, a replay socket each) restarts on the same ports
 * under steady load; its engine comes back with an empty cache and its event sequence from 0. The router's subscriber
 * hears the new publisher only from batch {@code n + 3} on, {@code n} being what the old one had published: its
 * socket redials while the new engine already publishes, as after any real restart, so the new stream is past the
 * old one's sequence numbers when it is first heard, and only the connection's end tells the restart. The router must
 * drop what it believed the pod held, follow the new stream from its start (replayed), and serve every request.
 */
class PodRestartFaultIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final int FAMILIES = 6;
    private static final int REQUESTS = 300;
    private static final int CLIENTS = 4;
    private static final int RESTARTED = 1;
    private static final String POD = "pod-" + RESTARTED;
    private static final Duration DOWN = Duration.ofMillis(1500);

    @TempDir
    Path dir;

    @Test
    void aRestartedPodsEntriesAreDroppedItsNewStreamFollowedFromItsStartAndEveryRequestAnswered() throws Exception {
        try (TestCluster cluster = PreciseCluster.start(dir, i -> true); // tokens from pod-0, never restarted
             EjectionWatch watch = EjectionWatch.start(cluster.adminUrl("/metrics"), POD)) {
            cluster.awaitKvEvents();
            double retriesBefore = metric(cluster, "homing_upstream_retries_total", null);

            SteadyLoad load = SteadyLoad.start(cluster.url("/v1/completions"), CLIENTS, REQUESTS,
                    SteadyLoad.completions(MODEL, FAMILIES, 8));
            load.awaitStarted(REQUESTS / 3, Duration.ofSeconds(30));
            Map<Integer, String> homes = homes(load.ended());
            Map<Integer, Integer> heldBefore = new TreeMap<>();
            for (int f = 0; f < FAMILIES; f++) {
                heldBefore.put(f, matched(cluster, f).getOrDefault(POD, 0));
            }

            SimPod old = cluster.pod(RESTARTED);
            long published = old.kvEventBatchesPublished();
            long down = System.nanoTime();
            SimPod fresh = old.restart(DOWN, LiveFaults.dropFirst(published + 3));
            long up = System.nanoTime();
            cluster.pods().set(RESTARTED, fresh);

            List<SteadyLoad.Sent> all = load.finish(Duration.ofSeconds(60));
            SteadyLoad.Tally tally = SteadyLoad.Tally.of(all);
            long retried = Math.round(metric(cluster, "homing_upstream_retries_total", null) - retriesBefore);
            all.stream().filter(s -> s.outcome() != SteadyLoad.Outcome.ANSWERED).limit(5)
                    .forEach(s -> System.out.println("  not answered: " + s));

            // Had the load not taken the fresh pod past the batches it never sent live, nothing of it would be heard.
            for (int i = 0; fresh.kvEventBatchesPublished() == 0; i++) {
                assertThat(cluster.http().post(cluster.podUrl(RESTARTED, "/v1/completions"),
                        SteadyLoad.completions(MODEL, FAMILIES, 1).body(10_000 + i, false)).statusCode())
                        .isEqualTo(200);
            }
            long heard = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.routerInFlight() == 0);
            // At rest the index says of every pod exactly what it holds: of the restarted one, only what its new
            // engine stored (its start replayed), nothing of what the old engine held.
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(indexed(cluster)).isEqualTo(held(cluster)));
            long agreed = System.nanoTime();

            MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
            // After the restart the prefixes have homes elsewhere (they moved while the pod was down): few requests,
            // often none, go back to the restarted pod; it is no outlier, never ejected.
            long backOnPod = all.stream().filter(s -> POD.equals(s.pod()) && s.startNanos() - up > 0).count();
            System.out.println("FAULT pod-restart-kv-sequence-reset: " + tally.line(retried)
                    + " down=" + DOWN.toMillis() + "ms"
                    + " eject=" + EjectionWatch.seconds(down, watch.ejectedAfter(down))
                    + " readmit=" + EjectionWatch.seconds(down, watch.readmittedAfter(down)) + " (from down)"
                    + " requests_on_restarted_pod_after_up=" + backOnPod
                    + " kv_restarts=" + Math.round(value(m, "homing_kv_events_restarts_total", POD))
                    + " kv_batches_lost=" + Math.round(m.sum("homing_kv_events_batches_lost_total"))
                    + " index_equals_pods_after=" + EjectionWatch.seconds(heard, OptionalLong.of(agreed))
                    + " in_flight_at_rest=" + cluster.routerInFlight()
                    + " homes_before=" + homes + " pod-1_blocks_before=" + heldBefore);

            assertThat(tally.lost()).as("requests that got no answer at all").isZero();
            assertThat(tally.failed() + tally.cut()).as("only requests in flight on the pod as it went down fail")
                    .isLessThanOrEqualTo(CLIENTS);
            assertThat(tally.answered() + tally.failed() + tally.cut()).isEqualTo(REQUESTS);
            assertThat(cluster.routerInFlight()).isZero();
            assertThat(cluster.routerPendingPrefill()).isZero();
            assertThat(value(m, "homing_kv_events_restarts_total", POD)).as("one restart, seen once").isEqualTo(1);
            for (int i = 0; i < 3; i++) {
                if (i != RESTARTED) {
                    assertThat(value(m, "homing_kv_events_restarts_total", "pod-" + i)).isZero();
                }
            }
            assertThat(m.sum("homing_kv_events_batches_lost_total")).as("the replay socket filled every gap").isZero();
            assertThat(homes).as("prefixes were routed home before the restart").isNotEmpty();
            assertThat(heldBefore.values()).as("the pod held some prefixes before").anyMatch(b -> b > 0);
        }
    }

    /** Each family's pod, for families whose answered requests so far went mostly (over half) to one pod. */
    private static Map<Integer, String> homes(List<SteadyLoad.Sent> ended) {
        Map<Integer, Map<String, Integer>> byFamily = new TreeMap<>();
        for (SteadyLoad.Sent s : ended) {
            if (s.outcome() == SteadyLoad.Outcome.ANSWERED) {
                byFamily.computeIfAbsent(s.index() % FAMILIES, f -> new HashMap<>()).merge(s.pod(), 1, Integer::sum);
            }
        }
        Map<Integer, String> homes = new TreeMap<>();
        byFamily.forEach((f, pods) -> {
            int total = pods.values().stream().mapToInt(Integer::intValue).sum();
            pods.forEach((pod, count) -> {
                if (count * 2 > total) {
                    homes.put(f, pod);
                }
            });
        });
        return homes;
    }

    /** Blocks the router's index holds per pod (after a lookup, so that expired speculative holds are gone). */
    private static Map<String, Long> indexed(TestCluster cluster) {
        matched(cluster, 0);
        PreciseIndex index = cluster.router().config().pluginsOf(KvEventFeed.class).getFirst().index();
        Map<String, Long> out = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            out.put("pod-" + i, index.size("pod-" + i));
        }
        return out;
    }

    /** Blocks each pod's prefix cache holds. */
    private static Map<String, Long> held(TestCluster cluster) {
        Map<String, Long> out = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            out.put("pod-" + i, (long) cluster.pod(i).stats().cachedBlocks());
        }
        return out;
    }

    private static Map<String, Integer> matched(TestCluster cluster, int family) {
        return Decisions.matchedBlocks(json(cluster.http().post(cluster.adminUrl("/debug/schedule"),
                SteadyLoad.completions(MODEL, FAMILIES, 8).body(family, false))));
    }

    private static double metric(TestCluster cluster, String name, String pod) {
        MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
        return pod == null ? m.sum(name) : value(m, name, pod);
    }

    private static double value(MetricsText m, String name, String pod) {
        return m.samples(name).stream().filter(s -> pod.equals(s.label("pod"))).mapToDouble(s -> s.value()).sum();
    }
}
