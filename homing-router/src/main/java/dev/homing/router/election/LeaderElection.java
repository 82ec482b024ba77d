package dev.homing.router.election;

import dev.homing.router.discovery.KubernetesApi;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Active-passive replicas, as llm-d's {@code --ha-enable-leader-election}: the replicas of one picker contend for a
 * {@code coordination.k8s.io/v1} Lease (llm-d's name, {@code epp-NAMESPACE-NAME.llm-d.ai}, in the pool's namespace),
 * and only the one holding it is ready, so the gateway's Service sends to it alone.
 *
 * <p>client-go's algorithm, which controller-runtime (llm-d's picker) runs: every retry period each candidate reads
 * the Lease; the holder renews it (an update guarded by its resourceVersion, so of two writers one fails); another
 * takes it only once the record has not changed for a lease duration <em>as this replica measured it</em> (its own
 * monotonic clock since it last saw the record change: no trust in the other's wall clock), or at once when the
 * holder released it (empty holder). A leader that has not renewed for a renew deadline stops leading (not ready)
 * and stands again; since the deadline is shorter than the lease, it has stopped before anyone may take over. On
 * close, a leader releases the lease so a standby takes over without waiting. fabric8's own elector was tried first:
 * as wired, against the mock API server, its leader never renewed (a standby took the lease within a second) and a
 * leader that lost the API server kept leading; the hand-over test shows what this one does.
 */
public final class LeaderElection implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaderElection.class.getName());

    private final KubernetesApi api;
    private final String namespace;
    private final String lease;
    private final String identity;
    private final ElectionTimings timings;
    private final Consumer<Boolean> leading;
    /** Runs every attempt, one at a time. */
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-leader-election");
        t.setDaemon(true);
        return t;
    });
    // The loop thread's alone:
    private String observedVersion;
    private long observedNanos;
    private long renewedNanos;
    private String lastHolder;
    private volatile boolean leader;

    /**
     * @param identity this replica's name in the lease ({@link #identity(Map)})
     * @param leading  told true when this replica starts leading, false when it stops, on the election's thread
     */
    public LeaderElection(KubernetesApi api, String namespace, String lease, String identity, ElectionTimings timings,
                          Consumer<Boolean> leading) {
        this.api = api;
        this.namespace = namespace;
        this.lease = lease;
        this.identity = identity;
        this.timings = timings;
        this.leading = leading;
    }

    /** client-go's: the pod's name (else the host's), and a UUID, so a restarted replica is a new candidate. */
    public static String identity(Map<String, String> env) {
        String host = env.get("POD_NAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "homing";
            }
        }
        return host + "_" + UUID.randomUUID();
    }

    public void start() {
        LOG.log(System.Logger.Level.INFO, "leader election: " + identity + " stands for lease " + namespace + "/"
                + lease);
        long period = timings.retryPeriod().toNanos();
        loop.scheduleWithFixedDelay(this::attempt, 0, period, TimeUnit.NANOSECONDS);
    }

    private Resource<Lease> resource() {
        return api.client().leases().inNamespace(namespace).withName(lease);
    }

    /** One round: acquire or renew if this replica may, then stop leading if it has not renewed in time. */
    private void attempt() {
        try {
            tryAcquireOrRenew();
        } catch (KubernetesClientException | IllegalStateException e) {
            // the API server away, a conflict with another writer, a closed client: not renewed this round
            LOG.log(System.Logger.Level.DEBUG, "leader election: attempt failed: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "leader election: attempt failed", e);
        }
        if (leader && System.nanoTime() - renewedNanos > timings.renewDeadline().toNanos()) {
            LOG.log(System.Logger.Level.WARNING, "leader election: " + identity + " could not renew lease "
                    + namespace + "/" + lease + " for " + timings.renewDeadline() + "; it stops leading");
            lead(false);
        }
    }

    private void tryAcquireOrRenew() {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        int seconds = (int) Math.max(1, timings.leaseDuration().toSeconds());
        Lease current = resource().get();
        if (current == null) {
            resource().create(new LeaseBuilder().withNewMetadata().withName(lease).withNamespace(namespace)
                    .endMetadata().withNewSpec().withHolderIdentity(identity).withLeaseDurationSeconds(seconds)
                    .withAcquireTime(now).withRenewTime(now).withLeaseTransitions(0).endSpec().build());
            renewed();
            return;
        }
        String version = current.getMetadata().getResourceVersion();
        if (!Objects.equals(version, observedVersion)) {
            observedVersion = version;
            observedNanos = System.nanoTime();
        }
        String holder = current.getSpec() == null ? null : current.getSpec().getHolderIdentity();
        if (!Objects.equals(holder, lastHolder)) {
            lastHolder = holder;
            LOG.log(System.Logger.Level.INFO, "leader election: lease " + namespace + "/" + lease + " held by "
                    + (holder == null || holder.isEmpty() ? "nobody" : holder));
        }
        boolean mine = identity.equals(holder);
        boolean free = holder == null || holder.isEmpty()
                || System.nanoTime() - observedNanos > timings.leaseDuration().toNanos();
        if (!mine && !free) {
            if (leader) {
                lead(false); // another took it
            }
            return;
        }
        int transitions = current.getSpec().getLeaseTransitions() == null ? 0
                : current.getSpec().getLeaseTransitions();
        Lease next = new LeaseBuilder(current).editSpec().withHolderIdentity(identity)
                .withLeaseDurationSeconds(seconds).withRenewTime(now)
                .withAcquireTime(mine ? current.getSpec().getAcquireTime() : now)
                .withLeaseTransitions(mine ? transitions : transitions + 1).endSpec().build();
        Lease written = api.client().leases().inNamespace(namespace).resource(next).update(); // by resourceVersion
        observedVersion = written.getMetadata().getResourceVersion();
        observedNanos = System.nanoTime();
        renewed();
    }

    private void renewed() {
        renewedNanos = System.nanoTime();
        lead(true);
    }

    private void lead(boolean now) {
        if (leader == now) {
            return;
        }
        leader = now;
        LOG.log(System.Logger.Level.INFO, "leader election: " + identity + (now ? " leads" : " no longer leads"));
        leading.accept(now);
    }

    /** Whether this replica holds the lease now. */
    public boolean leader() {
        return leader;
    }

    public String identity() {
        return identity;
    }

    /** Stops standing; a leader releases the lease, so a standby takes over without waiting for it to lapse. */
    @Override
    public void close() {
        loop.shutdownNow();
        try {
            loop.awaitTermination(timings.renewDeadline().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (leader) {
            leader = false;
            leading.accept(false);
            try {
                Lease current = resource().get();
                if (current != null && current.getSpec() != null
                        && identity.equals(current.getSpec().getHolderIdentity())) {
                    // client-go's release: no holder, a one-second lease
                    api.client().leases().inNamespace(namespace).resource(new LeaseBuilder(current).editSpec()
                            .withHolderIdentity("").withLeaseDurationSeconds(1).endSpec().build()).update();
                    LOG.log(System.Logger.Level.INFO, "leader election: " + identity + " released lease "
                            + namespace + "/" + lease);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "leader election: could not release lease " + namespace + "/"
                        + lease + "; a standby takes over when it lapses: " + e.getMessage());
            }
        }
    }
}
