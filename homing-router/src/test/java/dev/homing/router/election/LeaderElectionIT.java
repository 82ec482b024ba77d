package dev.homing.router.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.KubernetesApi;
import dev.homing.router.discovery.KubernetesPool;
import dev.homing.router.extproc.PickerHealth;
import dev.homing.router.fixtures.MockApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active-passive replicas through a coordination.k8s.io Lease on fabric8's mock API server (CRUD mode): one leads,
 * the other stands by, and the standby takes over when the leader's lease lapses or is given up. Timings are short
 * (a 3 s lease) so the hand-over is seen in seconds; the rule is client-go's whatever the numbers.
 */
class LeaderElectionIT {

    private static final ElectionTimings FAST = new ElectionTimings(Duration.ofSeconds(3), Duration.ofSeconds(2),
            Duration.ofMillis(200));
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String LEASE = "epp-llm-qwen.llm-d.ai";

    @TempDir
    Path dir;

    @Test
    void theStandbyTakesOverWhenTheLeadersLeaseLapsesAndOnlyTheLeaderIsReady() {
        try (MockApiServer api = MockApiServer.start(dir)) {
            KubernetesApi apiA = KubernetesApi.connect(api.kubeconfig());
            KubernetesApi apiB = KubernetesApi.connect(api.kubeconfig());
            PickerHealth healthA = synced();
            PickerHealth healthB = synced();
            try (LeaderElection a = new LeaderElection(apiA, MockApiServer.NAMESPACE, LEASE, "a_1", FAST,
                    healthA::setLeader);
                 LeaderElection b = new LeaderElection(apiB, MockApiServer.NAMESPACE, LEASE, "b_1", FAST,
                         healthB::setLeader)) {
                a.start();
                await().atMost(WAIT).until(a::leader);
                b.start();
                await().atMost(WAIT).until(() -> holder(api) != null && holder(api).equals("a_1"));
                assertThat(healthA.ready()).isTrue();
                assertThat(b.leader()).as("a standby while a's lease holds").isFalse();
                assertThat(healthB.ready()).isFalse();
                assertThat(healthB.notReady()).contains("does not lead");

                // a loses the API server: it cannot renew, and does not release; its lease lapses
                apiA.close();
                await().atMost(WAIT).until(() -> !a.leader());
                assertThat(healthA.ready()).as("a leader that cannot renew stops being ready").isFalse();
                await().atMost(WAIT).until(b::leader);
                assertThat(healthB.ready()).isTrue();
                assertThat(holder(api)).isEqualTo("b_1");
                assertThat(a.leader()).isFalse();
            } finally {
                apiB.close();
            }
        }
    }

    @Test
    void routerReplicasOnlyTheLeaderIsReadyAndAClosedLeaderHandsOver() throws Exception {
        try (MockApiServer api = MockApiServer.start(dir)) {
            api.create(MockApiServer.inferencePool("qwen", Map.of("app", "vllm"), List.of(8000)));
            try (RouterServer a = replica(api)) {
                await().atMost(WAIT).until(() -> a.health().ready());
                assertThat(a.election().leader()).isTrue();
                RouterServer b = replica(api);
                try {
                    await().atMost(WAIT).until(() -> b.discovery().synced());
                    assertThat(b.health().ready()).as("synced, but a standby").isFalse();
                    assertThat(b.election().leader()).isFalse();
                    a.close(); // a leader shutting down gives its lease up: no lapse to wait for
                    await().atMost(WAIT).until(() -> b.health().ready());
                    assertThat(b.election().leader()).isTrue();
                    assertThat(holder(api)).isEqualTo(b.election().identity());
                } finally {
                    b.close();
                }
            }
        }
    }

    private static RouterServer replica(MockApiServer api) throws Exception {
        return RouterServer.start(RouterOptions.defaults(List.of()).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.extProcPort = 0;
            o.healthPort = 0;
            o.kubernetes = KubernetesPool.inferencePool(MockApiServer.NAMESPACE, "qwen", null, Map.of());
            o.kubeconfig = api.kubeconfig();
            o.election = FAST;
        }));
    }

    private static PickerHealth synced() {
        PickerHealth h = new PickerHealth(true);
        h.setSynced(true);
        return h;
    }

    private static String holder(MockApiServer api) {
        Lease lease = api.client().leases().inNamespace(MockApiServer.NAMESPACE).withName(LEASE).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
