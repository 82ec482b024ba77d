package dev.homing.router.election;

import dev.homing.router.discovery.KubernetesApi;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.ZoneOffset;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Active-passive replicas, as llm-d's {@code --ha-enable-leader-election}: the replicas of one picker contend for a
 * {@code coordination.k8s.io/v1} Lease (llm-d's name, {@code epp-NAMESPACE-NAME.llm-d.ai}, in the pool's namespace),
 * and only the one holding it is ready, so the gateway's Service sends to it alone.
 *
 * <p>client-go's algorithm, which controller-runtime (llm-d's picker) runs: every retry period each candidate reads
 * the Lease; the holder renews it (an update guarded by its resourceVersion, so of two writers one fails); another
 * takes it only once the record has not changed for the record's lease duration <em>as this replica measured
 * it</em> (its own monotonic clock since it last saw the record change: no trust in the other's wall clock), or at
 * once when the holder released it (empty holder). A leader that has not renewed for a renew deadline stops leading
 * (not ready) and stands again; since the deadline is shorter than the lease, it has stopped before anyone may take
 * over. That stop is a timer of its own, not a step of the loop: a renewal whose request hangs (an API server that
 * accepts and never answers) must not hold the leader ready past its deadline. The election's requests also give up
 * after about a retry period (client-go bounds each try), so the loop tries again rather than wait on fabric8's
 * 10 s timeouts. A renewal refused because another wrote the lease (409) stops leading at once. On
 * close, a leader releases the lease so a standby takes over without waiting. fabric8's own elector was tried first:
 * as wired, against the mock API server, its leader never renewed (a standby took the lease within a second) and a
 * leader that lost the API server kept leading; the hand-over test shows what this one does.
 */
public final class LeaderElection implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaderElection.class.getName());
    /** The least a request of the election waits: a loaded machine's slow answer is not an API server away. */
    private static final Duration MIN_REQUEST_TIMEOUT = Duration.ofSeconds(1);

    private final KubernetesApi api;
    private final String namespace;
    private final String lease;
    private final String identity;
    private final ElectionTimings timings;
    private final Consumer<Boolean> leading;
    /** The attempts, one at a time, on one thread; the renew deadline's timer on the other, so a hung attempt does
     *  not hold it up. */
    private final ScheduledExecutorService loop = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "homing-leader-election");
        t.setDaemon(true);
        return t;
    });
    // The attempts' alone (one at a time, each after the last):
    private String observedVersion;
    private long observedNanos;
    private String lastHolder;
    // Guarded by this: when the last renewal that succeeded began, and the timer that steps down a deadline later.
    private long renewedNanos;
    private ScheduledFuture<?> deadline;
    private volatile boolean leader;

    /**
     * @param api      the API server; the election talks to it through a client of its own, with short timeouts
     * @param identity this replica's name in the lease ({@link #identity(Map)})
     * @param leading  told true when this replica starts leading, false when it stops, on the election's threads
     */
    public LeaderElection(KubernetesApi api, String namespace, String lease, String identity, ElectionTimings timings,
                          Consumer<Boolean> leading) {
        Duration timeout = timings.retryPeriod().compareTo(MIN_REQUEST_TIMEOUT) < 0 ? MIN_REQUEST_TIMEOUT
                : timings.retryPeriod();
        this.api = api.withTimeouts(timeout);
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

    /**
     * One round: acquire or renew if this replica may. Nothing escapes it: an exception out of a task run by
     * {@code scheduleWithFixedDelay} cancels every later run, silently, and the replica would stand no more.
     */
    private void attempt() {
        try {
            tryAcquireOrRenew(System.nanoTime());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 && leader) {
                // another replica wrote the lease since this one read it: it took over, so stop now, not a
                // deadline later
                LOG.log(System.Logger.Level.WARNING, "leader election: " + identity + " lost lease " + namespace
                        + "/" + lease + " to another writer; it stops leading");
                lead(false);
            } else {
                // the API server away or slow, a conflict while standing by: not renewed this round
                LOG.log(System.Logger.Level.DEBUG, "leader election: attempt failed: " + e.getMessage());
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "leader election: attempt failed", e);
        }
    }

    /** @param began when this attempt began: a renewal counts from then, before its requests, not after */
    private void tryAcquireOrRenew(long began) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        int seconds = (int) Math.max(1, timings.leaseDuration().toSeconds());
        Lease current = resource().get();
        if (current == null) {
            resource().create(new LeaseBuilder().withNewMetadata().withName(lease).withNamespace(namespace)
                    .endMetadata().withNewSpec().withHolderIdentity(identity).withLeaseDurationSeconds(seconds)
                    .withAcquireTime(now).withRenewTime(now).withLeaseTransitions(0).endSpec().build());
            renewed(began);
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
                || System.nanoTime() - observedNanos > recordDuration(current).toNanos();
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
        renewed(began);
    }

    /**
     * How long the holder's lease holds, as the record says (client-go's rule: the holder's duration, not this
     * replica's, which another version or config may set otherwise); this replica's when the record names none.
     */
    private Duration recordDuration(Lease current) {
        Integer seconds = current.getSpec() == null ? null : current.getSpec().getLeaseDurationSeconds();
        return seconds == null ? timings.leaseDuration() : Duration.ofSeconds(Math.max(1, seconds));
    }

    /** The lease is this replica's, renewed by an attempt that began at {@code began}: lead until its deadline. */
    private synchronized void renewed(long began) {
        long left = began + timings.renewDeadline().toNanos() - System.nanoTime();
        if (left <= 0) {
            return; // the renewal took so long that its deadline has passed already: the timer stepped down
        }
        renewedNanos = began;
        if (deadline != null) {
            deadline.cancel(false);
        }
        deadline = loop.schedule(this::stepDownIfLate, left, TimeUnit.NANOSECONDS);
        lead(true);
    }

    /** The renew deadline's timer: a leader whose last renewal began a deadline ago stops leading. */
    private synchronized void stepDownIfLate() {
        try {
            if (leader && System.nanoTime() - renewedNanos >= timings.renewDeadline().toNanos()) {
                LOG.log(System.Logger.Level.WARNING, "leader election: " + identity + " could not renew lease "
                        + namespace + "/" + lease + " for " + timings.renewDeadline() + "; it stops leading");
                lead(false);
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.WARNING, "leader election: stepping down failed", e);
        }
    }

    private synchronized void lead(boolean now) {
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
        boolean wasLeader;
        synchronized (this) {
            wasLeader = leader;
            leader = false;
        }
        try {
            if (wasLeader) {
                leading.accept(false);
                release();
            }
        } finally {
            api.close();
        }
    }

    private void release() {
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
