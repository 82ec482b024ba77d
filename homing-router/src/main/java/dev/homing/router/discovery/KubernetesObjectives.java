package dev.homing.router.discovery;

import dev.homing.core.config.ConfigException;
import dev.homing.core.objective.InferenceObjective;
import dev.homing.core.objective.ModelRewrite;
import dev.homing.core.objective.Objectives;
import dev.homing.router.objective.ObjectiveResources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The cluster's {@code InferenceObjective}s and {@code InferenceModelRewrite}s for the InferencePool the router
 * follows ({@code inference.networking.x-k8s.io/v1alpha2}, in the pool's namespace), watched with fabric8 informers
 * as the pool and its pods are, and handed on as one {@link Objectives} snapshot after every add, update and delete
 * (and every resync), once both kinds have been listed. Each object is read as the objectives file's documents are
 * ({@link ObjectiveResources#fromJson}); one that cannot be read is left out and said once in the log.
 *
 * <p>Which resources are the pool's, as llm-d's reconcilers decide (llm-d/llm-d-inference-scheduler
 * {@code pkg/epp/controller/inferenceobjective_reconciler.go} and {@code inferencemodelrewrite_reconciler.go}, commit
 * 0a4fd844b18f40bcb2e3dba337e07c7b35153a71): {@code spec.poolRef.name} is the pool's name and
 * {@code spec.poolRef.group} its group ({@code inference.networking.k8s.io}; not given, the CRD's default, which is
 * that group). {@code spec.poolRef.kind} is not compared, as llm-d does not. A resource being deleted (a deletion
 * timestamp) is no longer the pool's.
 *
 * <p>Rewrites are handed on oldest first (creation timestamp; equal ones by name), the order in which
 * {@link Objectives} lets the first rule win, as llm-d's {@code ModelRewriteStore} sorts its rules by creation time
 * ({@code pkg/epp/datastore}).
 */
public final class KubernetesObjectives implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KubernetesObjectives.class.getName());
    public static final String GROUP = "inference.networking.x-k8s.io";
    public static final String VERSION = "v1alpha2";
    public static final ResourceDefinitionContext OBJECTIVES = context(ObjectiveResources.OBJECTIVE,
            "inferenceobjectives");
    public static final ResourceDefinitionContext REWRITES = context(ObjectiveResources.REWRITE,
            "inferencemodelrewrites");
    /** Distinct resource problems remembered, so each is logged once while it lasts. */
    private static final int PROBLEMS_REMEMBERED = 256;

    private final KubernetesPool target;
    private final Consumer<Objectives> publish;
    private final KubernetesSerialization json;
    private final String url;
    private final SharedIndexInformer<GenericKubernetesResource> objectives;
    private final SharedIndexInformer<GenericKubernetesResource> rewrites;
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    /** Resource problems already logged; under this. */
    private final Map<String, Boolean> logged = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > PROBLEMS_REMEMBERED;
        }
    };
    private String summary;
    private volatile boolean closed;

    /**
     * @param target  the InferencePool followed (standalone pools have no objectives from the cluster, as in llm-d)
     * @param publish given each new snapshot, on an informer's thread, one at a time
     */
    public KubernetesObjectives(KubernetesApi api, KubernetesPool target, Duration resync,
                                Consumer<Objectives> publish) {
        if (!target.followsInferencePool()) {
            throw new IllegalArgumentException("objectives are followed for an InferencePool, not " + target.describe());
        }
        this.target = target;
        this.publish = publish;
        this.json = api.client().getKubernetesSerialization();
        this.url = api.url();
        this.objectives = api.client().genericKubernetesResources(OBJECTIVES).inNamespace(target.namespace())
                .runnableInformer(resync.toMillis());
        this.rewrites = api.client().genericKubernetesResources(REWRITES).inNamespace(target.namespace())
                .runnableInformer(resync.toMillis());
    }

    private static ResourceDefinitionContext context(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion(VERSION).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    public void start() {
        start(objectives, OBJECTIVES.getPlural());
        start(rewrites, REWRITES.getPlural());
    }

    private void start(SharedIndexInformer<GenericKubernetesResource> informer, String what) {
        informer.addEventHandler(new RefreshOnChange<>(what, this::refresh));
        // as the pool's informers: retry, and say why once while it lasts (a CRD not installed is a 404)
        informer.exceptionHandler((started, t) -> {
            if (closed) {
                return false; // closing: the client may be closed under a relist
            }
            String problem = (started ? "watching " : "listing ") + what + "." + GROUP + " in " + target.namespace()
                    + " at " + url + " failed, retrying: " + KubernetesDiscovery.cause(t)
                    + (notFound(t) ? " (is the CRD installed?)" : "");
            if (!problem.equals(failures.put(what, problem))) {
                LOG.log(System.Logger.Level.WARNING, "Kubernetes: " + problem);
            }
            return true;
        });
        informer.start().whenComplete((ok, failed) -> refresh(failed == null ? what : null));
    }

    private static boolean notFound(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() == 404) {
                return true;
            }
        }
        return false;
    }

    private synchronized void refresh(String delivered) {
        if (delivered != null) {
            failures.remove(delivered);
        }
        if (closed || !objectives.hasSynced() || !rewrites.hasSynced()) {
            return; // nothing until both are listed: a snapshot of half of them would drop rules for a moment
        }
        List<InferenceObjective> found = new ArrayList<>();
        for (Read r : read(objectives.getStore().list())) {
            found.add(r.resource().objective());
        }
        List<ModelRewrite> rules = new ArrayList<>();
        for (Read r : read(rewrites.getStore().list())) {
            rules.add(r.resource().rewrite());
        }
        String now = found.size() + " InferenceObjectives " + found.stream().map(InferenceObjective::name).toList()
                + ", " + rules.size() + " InferenceModelRewrites " + rules.stream().map(ModelRewrite::name).toList();
        if (!now.equals(summary)) {
            summary = now;
            LOG.log(System.Logger.Level.INFO, target.describe() + ": " + now);
        }
        publish.accept(Objectives.of(found, rules));
    }

    /** A resource of the pool, read, and when it was created. */
    private record Read(ObjectiveResources.Resource resource, Instant created, String name) {
    }

    /** The pool's resources among {@code items}, readable ones only, oldest first. */
    private List<Read> read(List<GenericKubernetesResource> items) {
        List<Read> out = new ArrayList<>();
        for (GenericKubernetesResource item : items) {
            if (item.getMetadata() == null || item.getMetadata().getDeletionTimestamp() != null
                    || !target.namespace().equals(item.getMetadata().getNamespace())) {
                continue;
            }
            String source = item.getKind() + " " + target.namespace() + "/" + item.getMetadata().getName();
            ObjectiveResources.Resource r;
            try {
                r = ObjectiveResources.fromJson(source, json.asJson(item));
            } catch (ConfigException | RuntimeException e) {
                // said once per version of the object: an edit that fixes it is used, one that does not is said again
                String problem = source + " (resourceVersion " + item.getMetadata().getResourceVersion()
                        + ") cannot be used, left out: " + e.getMessage();
                if (logged.put(problem, Boolean.TRUE) == null) {
                    LOG.log(System.Logger.Level.WARNING, target.describe() + ": " + problem);
                }
                continue;
            }
            if (ours(r)) {
                out.add(new Read(r, created(item), r.name()));
            }
        }
        out.sort(Comparator.comparing(Read::created).thenComparing(Read::name));
        return out;
    }

    /** llm-d's {@code eventPredicate}: the pool's name and group; a group not given is the CRD's default, ours. */
    boolean ours(ObjectiveResources.Resource r) {
        String group = r.poolGroup() == null ? KubernetesPool.GROUP : r.poolGroup();
        return target.name().equals(r.pool()) && KubernetesPool.GROUP.equals(group);
    }

    /** The creation timestamp; one not given or not readable sorts last. */
    private static Instant created(GenericKubernetesResource item) {
        String t = item.getMetadata().getCreationTimestamp();
        if (t == null) {
            return Instant.MAX;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return Instant.MAX;
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        objectives.stop();
        rewrites.stop();
    }

    @Override
    public String toString() {
        return "objectives of " + target.describe() + (summary == null ? "" : ": " + summary);
    }
}
