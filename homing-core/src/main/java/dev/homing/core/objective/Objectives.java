package dev.homing.core.objective;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objectives the router knows, read from an objectives file or the cluster's {@code InferenceObjective}
 * resources: an immutable snapshot, replaced whole when its source changes, so a request reads one consistent set.
 *
 * <p>A request naming no objective, or one not (or no longer) defined, has priority 0, as llm-d gives it: an unknown
 * name is not an error, so a client is never refused over a typo or a resource not yet synced.
 */
public final class Objectives {

    /** No objectives: every request has priority 0. */
    public static final Objectives NONE = new Objectives(List.of());

    /** llm-d's default priority, for a request without an objective. */
    public static final int DEFAULT_PRIORITY = 0;

    private final Map<String, InferenceObjective> byName;

    private Objectives(List<InferenceObjective> objectives) {
        Map<String, InferenceObjective> m = new HashMap<>();
        for (InferenceObjective o : objectives) {
            m.put(o.name(), o); // a later definition of a name replaces an earlier one, as a re-applied resource does
        }
        this.byName = Map.copyOf(m);
    }

    public static Objectives of(List<InferenceObjective> objectives) {
        return objectives.isEmpty() ? NONE : new Objectives(objectives);
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
