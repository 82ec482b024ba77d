package dev.homing.router.election;

import dev.homing.router.discovery.KubernetesApi;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Active-passive replicas, as llm-d's {@code --ha-enable-leader-election}: the replicas of one picker contend for a
 * {@code coordination.k8s.io/v1} Lease (llm-d's name, {@code epp-NAMESPACE-NAME.llm-d.ai}, in the pool's namespace),
 * and only the one holding it is ready, so the gateway's Service sends to it alone. A standby takes over once the
 * leader's lease lapses (it stopped renewing: it died, or lost the API server), or at once when the leader releases
 * it on shutdown. A leader that loses the lease stops leading (not ready) and stands again as a candidate; llm-d's
 * process exits and is restarted instead, which comes to the same.
 */
public final class LeaderElection implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaderElection.class.getName());

    private final KubernetesApi api;
    private final String namespace;
    private final String lease;
    private final String identity;
    private final ElectionTimings timings;
    private final Consumer<Boolean> leading;
    /** Runs the elector's loop and its callbacks: each takes microseconds. */
    private final ScheduledExecutorService callbacks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "homing-leader-election");
        t.setDaemon(true);
        return t;
    });
    private CompletableFuture<?> running;
    private boolean closed;
    private volatile boolean leader;

    /**
     * @param identity this replica's name in the lease ({@link #identity(Map)})
     * @param leading  told true when this replica starts leading, false when it stops
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

    public synchronized void start() {
        LOG.log(System.Logger.Level.INFO, "leader election: " + identity + " stands for lease " + namespace + "/"
                + lease);
        stand();
    }

    /** One candidacy: acquire, lead, and when the lease is lost, stand again. */
    private synchronized void stand() {
        if (closed) {
            return;
        }
        LeaderElectionConfig config = new LeaderElectionConfig(new LeaseLock(namespace, lease, identity),
                timings.leaseDuration(), timings.renewDeadline(), timings.retryPeriod(),
                new LeaderCallbacks(() -> lead(true), () -> lead(false), this::newLeader), true, "homing");
        LeaderElector elector = new LeaderElectorBuilder(api.client(), callbacks).withConfig(config).build();
        running = elector.start();
        running.whenComplete((ok, failed) -> {
            if (failed != null && !closed) {
                LOG.log(System.Logger.Level.WARNING, "leader election stopped, standing again: " + failed);
            }
            lead(false);
            again();
        });
    }

    /** Stands again a retry period later: a candidacy that failed at once does not spin. */
    private void again() {
        try {
            callbacks.schedule(this::stand, timings.retryPeriod().toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile
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

    private void newLeader(String who) {
        LOG.log(System.Logger.Level.INFO, "leader election: lease " + namespace + "/" + lease + " held by " + who);
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
        CompletableFuture<?> r;
        synchronized (this) {
            closed = true;
            r = running;
        }
        if (r != null) {
            r.cancel(true); // releaseOnCancel: the elector gives the lease up
        }
        lead(false);
        callbacks.shutdown();
    }
}
