package dev.homing.router.discovery;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The pool as Kubernetes has it, followed with fabric8 informers (a list, then a watch, relisted when the watch
 * breaks, and resynced every {@code resync}): the namespace's pods and, unless the selector was given outright, the
 * InferencePool whose selector and target ports say which pods and ports. Every change recomputes the endpoint set
 * from the informers' caches ({@link PodEndpoints}) and publishes it when it differs, so an edit of the pool's
 * selector or ports is followed as a pod's change is. Recomputing is under one lock: the two informers' threads never
 * publish out of order.
 *
 * <p>Synced, as llm-d's {@code PoolHasSynced}: both informers have listed and the InferencePool exists and can be
 * used. Before that, and when the pool is deleted or cannot be used (no selector, no ports, a protocol Homing does
 * not speak), the pool is empty and the router not ready.
 */
public final class KubernetesDiscovery implements Discovery {

    private static final System.Logger LOG = System.getLogger(KubernetesDiscovery.class.getName());
    /** How often the informers replay their caches (llm-d's controller-runtime resyncs every 10 hours). */
    public static final Duration DEFAULT_RESYNC = Duration.ofMinutes(10);
    /** Distinct pod problems remembered, so each is logged once while it lasts. */
    private static final int PROBLEMS_REMEMBERED = 256;
    private static final ResourceDefinitionContext INFERENCE_POOL = new ResourceDefinitionContext.Builder()
            .withGroup(KubernetesPool.GROUP).withVersion(KubernetesPool.VERSION).withKind("InferencePool")
            .withPlural("inferencepools").withNamespaced(true).build();

    private final KubernetesPool target;
    private final EndpointPool pool;
    private final Runnable syncChanged;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<GenericKubernetesResource> inferencePools;
    /** Pod problems already logged, least recently seen forgotten first; under this. */
    private final Map<String, Boolean> logged = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > PROBLEMS_REMEMBERED;
        }
    };
    private final String url;
    /** The last failure each informer reported, so a failure that lasts is logged once. */
    private final Map<String, String> failures = new java.util.concurrent.ConcurrentHashMap<>();
    private List<Endpoint> published;
    private String poolProblem;
    private boolean closed;
    private volatile boolean synced;

    /** @param syncChanged told when {@link #synced()} changes, on an informer's thread */
    public KubernetesDiscovery(KubernetesApi api, KubernetesPool target, EndpointPool pool, Duration resync,
                               Runnable syncChanged) {
        this.target = target;
        this.pool = pool;
        this.syncChanged = syncChanged;
        this.url = api.url();
        // Standalone, the selector's equalities (key=value) are asked of the API server, so pods that cannot match
        // are not cached; the whole selector is still applied here (in, notin, !=, exists are not sent: equalities
        // are what every API server, and fabric8's mock, filter alike). An InferencePool's selector can be edited,
        // so that informer takes the namespace's pods.
        Map<String, String> equalities = target.followsInferencePool() ? Map.of() : target.selector().equalities();
        this.pods = equalities.isEmpty()
                ? api.client().pods().inNamespace(target.namespace()).runnableInformer(resync.toMillis())
                : api.client().pods().inNamespace(target.namespace()).withLabels(equalities)
                        .runnableInformer(resync.toMillis());
        this.inferencePools = !target.followsInferencePool() ? null : api.client()
                .genericKubernetesResources(INFERENCE_POOL).inNamespace(target.namespace()).withName(target.name())
                .runnableInformer(resync.toMillis());
    }

    @Override
    public void start() {
        start(pods, "pods");
        if (inferencePools != null) {
            start(inferencePools, "inferencepools");
        }
    }

    private <T> void start(SharedIndexInformer<T> informer, String what) {
        informer.addEventHandler(new RefreshOnChange<>(what, this::refresh));
        // The API server may be away, or refuse (RBAC): keep trying, as controller-runtime does, and say why.
        // Said once while it lasts (the informer retries with a growing backoff), and again when it changes.
        informer.exceptionHandler((started, t) -> {
            String problem = (started ? "watching " : "listing ") + what + " in " + target.namespace() + " at "
                    + url + " failed, retrying: " + cause(t);
            if (!problem.equals(failures.put(what, problem))) {
                LOG.log(System.Logger.Level.WARNING, "Kubernetes: " + problem);
            }
            return true;
        });
        // the last listed may be seen before hasSynced; a start that failed has delivered nothing
        informer.start().whenComplete((ok, failed) -> refresh(failed == null ? what : null));
    }

    /** The innermost cause, which says what happened (a refused connection, a 403), not where it was wrapped. */
    static String cause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c == t || c.getMessage() == null ? String.valueOf(t.getMessage()) : c.getClass().getSimpleName()
                + ": " + c.getMessage();
    }

    /** @param delivered the informer that delivered an event: it works again, so its next failure is news */
    private synchronized void refresh(String delivered) {
        if (delivered != null) {
            failures.remove(delivered); // only its own: another informer still failing is not said again
        }
        if (closed || !pods.hasSynced() || (inferencePools != null && !inferencePools.hasSynced())) {
            return;
        }
        LabelSelector selector = target.selector();
        List<Integer> ports = target.targetPorts();
        String problem = null;
        if (inferencePools != null) {
            GenericKubernetesResource found = inferencePools.getStore().list().stream()
                    .filter(p -> target.name().equals(p.getMetadata().getName())).findFirst().orElse(null);
            if (found == null) {
                problem = "not found";
            } else {
                try {
                    InferencePoolSpec spec = InferencePoolSpec.of(found);
                    selector = spec.selector();
                    ports = spec.targetPorts();
                    if (!spec.spokenByHoming()) {
                        problem = "appProtocol " + spec.appProtocol() + " (gRPC model servers): Homing speaks "
                                + InferencePoolSpec.HTTP + " only";
                    }
                } catch (IllegalArgumentException e) {
                    problem = e.getMessage();
                }
            }
        }
        if (!Objects.equals(problem, poolProblem)) {
            poolProblem = problem;
            if (problem != null) {
                LOG.log(System.Logger.Level.WARNING, target.describe() + ": " + problem
                        + "; no endpoints, and not ready until it can be used");
            }
        }
        List<Endpoint> endpoints = List.of();
        if (problem == null) {
            PodEndpoints found = PodEndpoints.of(pods.getStore().list(), selector, ports);
            endpoints = found.endpoints();
            for (String p : found.problems()) {
                if (logged.put(p, Boolean.TRUE) == null) {
                    LOG.log(System.Logger.Level.WARNING, target.describe() + ": " + p);
                }
            }
        }
        publish(endpoints);
        boolean now = problem == null;
        if (now != synced) {
            synced = now;
            LOG.log(System.Logger.Level.INFO, target.describe() + (now ? ": synced, " + endpoints.size()
                    + " endpoints" : ": not synced"));
            syncChanged.run();
        }
    }

    private void publish(List<Endpoint> endpoints) {
        if (endpoints.equals(published)) {
            return;
        }
        boolean first = published == null;
        Set<String> before = first ? Set.of() : names(published);
        Set<String> after = names(endpoints);
        pool.setEndpoints(endpoints);
        published = endpoints;
        List<String> changes = new ArrayList<>();
        Set<String> joined = new TreeSet<>(after);
        joined.removeAll(before);
        Set<String> left = new TreeSet<>(before);
        left.removeAll(after);
        if (!joined.isEmpty()) {
            changes.add("joined " + String.join(", ", joined));
        }
        if (!left.isEmpty()) {
            changes.add("left " + String.join(", ", left));
        }
        LOG.log(System.Logger.Level.INFO, target.describe() + ": " + endpoints.size() + " endpoints"
                + (changes.isEmpty() ? first ? "" : " (an endpoint's labels or address changed)"
                : ": " + String.join("; ", changes)));
    }

    private static Set<String> names(List<Endpoint> endpoints) {
        return endpoints.stream().map(Endpoint::name).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The pods the informer caches, by name (to show which the API server was asked to leave out). */
    List<String> cachedPods() {
        return pods.getStore().list().stream().map(p -> p.getMetadata().getName()).sorted().toList();
    }

    @Override
    public boolean synced() {
        return synced;
    }

    @Override
    public String describe() {
        return target.describe();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        pods.stop();
        if (inferencePools != null) {
            inferencePools.stop();
        }
    }
}
