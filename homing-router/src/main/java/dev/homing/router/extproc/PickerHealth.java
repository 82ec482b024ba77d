package dev.homing.router.extproc;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * gRPC health as llm-d's picker answers it (its {@code health.go}), so its Helm chart's probes and Envoy's health
 * checks work unchanged. {@code liveness} is SERVING while the process answers. Readiness: the pool is synced (and,
 * with leader election, this replica leads). Without leader election every service name answers the readiness (the
 * chart probes {@code inference-extension} with one replica); with it, {@code readiness}, the empty name, the ext_proc
 * service name and {@code inference-extension} answer it, and other names are SERVICE_UNKNOWN.
 */
public final class PickerHealth extends HealthGrpc.HealthImplBase {

    public static final String LIVENESS = "liveness";
    public static final String READINESS = "readiness";
    /** What llm-d's chart probes (one replica). */
    public static final String INFERENCE_EXTENSION = "inference-extension";

    private final boolean leaderElection;
    private final Map<ServerCallStreamObserver<HealthCheckResponse>, String> watchers = new ConcurrentHashMap<>();
    private volatile boolean synced;
    private volatile boolean leader;
    private volatile boolean draining;

    /** @param leaderElection whether replicas elect a leader (only the leader is ready) */
    public PickerHealth(boolean leaderElection) {
        this.leaderElection = leaderElection;
    }

    /** The pool is known (a static list at once; a discovered pool once listed): the picker can place requests. */
    public void setSynced(boolean synced) {
        this.synced = synced;
        notifyWatchers();
    }

    /** This replica leads (with leader election only). */
    public void setLeader(boolean leader) {
        this.leader = leader;
        notifyWatchers();
    }

    /** The router is stopping: not ready from now on, so that gateways and Services stop sending it requests. */
    public void setDraining() {
        this.draining = true;
        notifyWatchers();
    }

    /** Ready: not draining, the pool is synced and, with leader election, this replica leads. */
    public boolean ready() {
        return !draining && synced && (!leaderElection || leader);
    }

    /** Why this replica is not ready, or null when it is (the admin port's {@code /readyz} says it). */
    public String notReady() {
        if (draining) {
            return "draining: the router is stopping";
        }
        if (!synced) {
            return "the pool has not synced yet";
        }
        return leaderElection && !leader ? "this replica does not lead (leader election: a standby)" : null;
    }

    /** The status of {@code service} now. */
    public ServingStatus status(String service) {
        if (service.equals(LIVENESS)) {
            return ServingStatus.SERVING;
        }
        boolean ready = ready();
        if (leaderElection && !service.isEmpty() && !service.equals(READINESS) && !service.equals(INFERENCE_EXTENSION)
                && !service.equals(ExternalProcessorGrpc.SERVICE_NAME)) {
            return ServingStatus.SERVICE_UNKNOWN;
        }
        return ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    }

    @Override
    public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> responses) {
        responses.onNext(HealthCheckResponse.newBuilder().setStatus(status(request.getService())).build());
        responses.onCompleted();
    }

    @Override
    public void watch(HealthCheckRequest request, StreamObserver<HealthCheckResponse> responses) {
        ServerCallStreamObserver<HealthCheckResponse> w = (ServerCallStreamObserver<HealthCheckResponse>) responses;
        w.setOnCancelHandler(() -> watchers.remove(w));
        synchronized (w) {
            watchers.put(w, request.getService());
            w.onNext(HealthCheckResponse.newBuilder().setStatus(status(request.getService())).build());
        }
    }

    /**
     * Tells every watcher its service's status; gRPC's watch protocol lets a repeat through, so no change is missed.
     * A watcher that cannot be told (its call closed between the check and the send: gRPC throws) is dropped; it
     * must not stop the others being told, nor throw into whoever changed the health (the leader election).
     */
    private void notifyWatchers() {
        watchers.forEach((w, service) -> {
            synchronized (w) {
                try {
                    if (!w.isCancelled()) {
                        w.onNext(HealthCheckResponse.newBuilder().setStatus(status(service)).build());
                    }
                } catch (RuntimeException e) {
                    watchers.remove(w);
                }
            }
        });
    }
}
