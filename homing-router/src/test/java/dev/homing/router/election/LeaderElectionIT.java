package dev.homing.router.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.discovery.KubernetesApi;
import dev.homing.router.discovery.KubernetesPool;
import dev.homing.router.extproc.PickerHealth;
import dev.homing.router.fixtures.HangingProxy;
import dev.homing.router.fixtures.MockApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active-passive replicas through a coordination.k8s.io Lease on fabric8's mock API server (CRUD mode): one leads,
 * the other stands by, and the standby takes over when the leader's lease lapses (its API server hangs, behind a
 * proxy that stops forwarding) or is given up. Timings are short
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
    void aLeaderKeepsRenewingAndOneWhoseApiServerHangsStepsDownBeforeTheStandbyTakesOver() throws Exception {
        try (MockApiServer api = MockApiServer.start(dir)) {
            URI server = URI.create(api.client().getConfiguration().getMasterUrl());
            try (HangingProxy proxy = HangingProxy.to(server.getHost(), server.getPort())) {
                KubernetesApi apiA = KubernetesApi.connect(MockApiServer.kubeconfig(dir, proxy.url()));
                KubernetesApi apiB = KubernetesApi.connect(api.kubeconfig());
                PickerHealth healthA = synced();
                PickerHealth healthB = synced();
                AtomicBoolean both = new AtomicBoolean();
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
                try (LeaderElection a = new LeaderElection(apiA, MockApiServer.NAMESPACE, LEASE, "a_1", FAST,
                        healthA::setLeader);
                     LeaderElection b = new LeaderElection(apiB, MockApiServer.NAMESPACE, LEASE, "b_1", FAST,
                             healthB::setLeader)) {
                    sampler.scheduleAtFixedRate(() -> {
                        if ((a.leader() && b.leader()) || (healthA.ready() && healthB.ready())) {
                            both.set(true);
                        }
                    }, 0, 5, TimeUnit.MILLISECONDS);
                    a.start();
                    await().atMost(WAIT).until(a::leader);
                    b.start();
                    Lease before = lease(api);
                    assertThat(before.getSpec().getHolderIdentity()).isEqualTo("a_1");

                    // two lease durations: a standby would have taken a lease its leader did not renew
                    Duration twoLeases = FAST.leaseDuration().multipliedBy(2);
                    await().pollDelay(twoLeases).atMost(twoLeases.plus(WAIT)).until(() -> true);
                    assertThat(a.leader()).as("the leader renews its lease").isTrue();
                    assertThat(b.leader()).as("a standby while a renews").isFalse();
                    assertThat(healthA.ready()).isTrue();
                    assertThat(healthB.ready()).isFalse();
                    assertThat(healthB.notReady()).contains("does not lead");
                    Lease renewed = lease(api);
                    assertThat(renewed.getSpec().getHolderIdentity()).isEqualTo("a_1");
                    assertThat(renewed.getMetadata().getResourceVersion())
                            .isNotEqualTo(before.getMetadata().getResourceVersion());
                    assertThat(renewed.getSpec().getRenewTime()).isAfter(before.getSpec().getRenewTime());

                    // a's API server hangs: its calls neither fail nor answer; it must stop before b may start
                    proxy.hang();
                    await().atMost(WAIT).until(() -> !a.leader());
                    assertThat(b.leader()).as("a stepped down before b took over").isFalse();
                    assertThat(healthA.ready()).as("a leader that cannot renew stops being ready").isFalse();
                    await().atMost(WAIT).until(b::leader);
                    assertThat(healthB.ready()).isTrue();
                    assertThat(lease(api).getSpec().getHolderIdentity()).isEqualTo("b_1");
                    assertThat(a.leader()).isFalse();
                    assertThat(both).as("never two leaders, nor two ready replicas, at once").isFalse();
                } finally {
                    sampler.shutdownNow();
                    apiA.close();
                    apiB.close();
                }
            }
        }
    }

    @Test
    void aLeaderWhoseCallbackThrowsKeepsStanding() {
        try (MockApiServer api = MockApiServer.start(dir)) {
            KubernetesApi apiA = KubernetesApi.connect(api.kubeconfig());
            AtomicBoolean thrown = new AtomicBoolean();
            try (LeaderElection a = new LeaderElection(apiA, MockApiServer.NAMESPACE, LEASE, "a_1", FAST, now -> {
                if (thrown.compareAndSet(false, true)) {
                    throw new AssertionError("a health watcher gone wrong");
                }
            })) {
                a.start();
                await().atMost(WAIT).until(thrown::get);
                await().atMost(WAIT).until(() -> lease(api) != null);
                String version = lease(api).getMetadata().getResourceVersion();
                // an escaped error would have cancelled every later attempt: the lease would never change again
                await().atMost(WAIT).until(() -> !lease(api).getMetadata().getResourceVersion().equals(version));
                assertThat(a.leader()).isTrue();
            } finally {
                apiA.close();
            }
        }
    }

    @Test
    void aStandbyWaitsTheLeaseDurationTheRecordNamesNotItsOwn() {
        try (MockApiServer api = MockApiServer.start(dir)) {
            // another replica, configured with a minute's lease, holds it
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            api.client().leases().inNamespace(MockApiServer.NAMESPACE).resource(new LeaseBuilder().withNewMetadata()
                    .withName(LEASE).withNamespace(MockApiServer.NAMESPACE).endMetadata().withNewSpec()
                    .withHolderIdentity("z_1").withLeaseDurationSeconds(60).withAcquireTime(now).withRenewTime(now)
                    .withLeaseTransitions(0).endSpec().build()).create();
            KubernetesApi apiB = KubernetesApi.connect(api.kubeconfig());
            try (LeaderElection b = new LeaderElection(apiB, MockApiServer.NAMESPACE, LEASE, "b_1", FAST, x -> { })) {
                b.start();
                // twice b's own (3 s) lease: judged by its own duration, b would have taken the lease by now
                Duration twoLeases = FAST.leaseDuration().multipliedBy(2);
                await().pollDelay(twoLeases).atMost(twoLeases.plus(WAIT)).until(() -> true);
                assertThat(b.leader()).as("z's 60 s lease still holds").isFalse();
                assertThat(holder(api)).isEqualTo("z_1");
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

    private static Lease lease(MockApiServer api) {
        return api.client().leases().inNamespace(MockApiServer.NAMESPACE).withName(LEASE).get();
    }

    private static String holder(MockApiServer api) {
        Lease lease = api.client().leases().inNamespace(MockApiServer.NAMESPACE).withName(LEASE).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
