package dev.homing.core.objective;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The objectives and model rewrites the router knows, read from an objectives file or the cluster's
 * {@code InferenceObjective} and {@code InferenceModelRewrite} resources: an immutable snapshot, replaced whole when
 * its source changes, so a request reads one consistent set.
 *
 * <p>A request naming no objective, or one not (or no longer) defined, has priority 0, as llm-d gives it: an unknown
 * name is not an error, so a client is never refused over a typo or a resource not yet synced.
 */
public final class Objectives {

    /** No objectives: every request has priority 0. */
    public static final Objectives NONE = new Objectives(List.of(), List.of());

    /** llm-d's default priority, for a request without an objective. */
    public static final int DEFAULT_PRIORITY = 0;

    private final Map<String, InferenceObjective> byName;
    private final List<ModelRewrite> rewrites;
    /** Per model, the exact rule that wins and its resource; the generic rule that wins, or null. */
    private final Map<String, Named> exact;
    private final Named generic;

    /** A rule and the resource it is written in. */
    private record Named(String rewrite, RewriteRule rule) {
    }

    private Objectives(List<InferenceObjective> objectives, List<ModelRewrite> rewrites) {
        Map<String, InferenceObjective> m = new HashMap<>();
        for (InferenceObjective o : objectives) {
            m.put(o.name(), o); // a later definition of a name replaces an earlier one, as a re-applied resource does
        }
        this.byName = Map.copyOf(m);
        this.rewrites = List.copyOf(rewrites);
        // llm-d's modelRewriteStore (pkg/epp/datastore): an exact match beats a generic rule; among equals the oldest
        // resource wins (here: the first given), and within one resource the first rule.
        Map<String, Named> e = new HashMap<>();
        Named g = null;
        for (ModelRewrite r : this.rewrites) {
            for (RewriteRule rule : r.rules()) {
                if (rule.generic()) {
                    g = g == null ? new Named(r.name(), rule) : g;
                } else {
                    for (String model : rule.models()) {
                        e.putIfAbsent(model, new Named(r.name(), rule));
                    }
                }
            }
        }
        this.exact = Map.copyOf(e);
        this.generic = g;
    }

    public static Objectives of(List<InferenceObjective> objectives) {
        return of(objectives, List.of());
    }

    /**
     * @param rewrites in precedence order: the oldest resource first (Kubernetes' creation time), as llm-d breaks ties
     */
    public static Objectives of(List<InferenceObjective> objectives, List<ModelRewrite> rewrites) {
        return objectives.isEmpty() && rewrites.isEmpty() ? NONE : new Objectives(objectives, rewrites);
    }

    /**
     * The rule decision for a request asking for {@code model}: the exact rule naming it, else the generic rule, its
     * target drawn from {@code random}; null when no rule applies (the request keeps its model).
     */
    public RewriteDecision rewrite(String model, RandomGenerator random) {
        if (model == null) {
            return null;
        }
        Named n = exact.get(model);
        if (n == null) {
            n = generic;
        }
        return n == null ? null : new RewriteDecision(n.rewrite(), model, n.rule().choose(random));
    }

    /** The model rewrites, in precedence order. */
    public List<ModelRewrite> rewrites() {
        return rewrites;
    }

    /** The priority of requests naming {@code objective} (null for none). */
    public int priority(String objective) {
        if (objective == null) {
            return DEFAULT_PRIORITY;
        }
        InferenceObjective o = byName.get(objective);
        return o == null ? DEFAULT_PRIORITY : o.priority();
    }

    /** The objective of that name, or null. */
    public InferenceObjective get(String name) {
        return byName.get(name);
    }

    public int size() {
        return byName.size();
    }
}
