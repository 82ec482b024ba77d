package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.Plugin;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Narrows the candidates. Filters run in order; the chain stops at the first empty result. */
public interface Filter extends Plugin {
    List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates);

    /**
     * The candidates {@code keep} accepts, in order; the input list itself when it accepts them all (the common case
     * of a filter that removes nothing costs no list).
     */
    static List<EndpointState> keep(List<EndpointState> candidates, Predicate<EndpointState> keep) {
        int n = candidates.size();
        int i = 0;
        while (i < n && keep.test(candidates.get(i))) {
            i++;
        }
        if (i == n) {
            return candidates;
        }
        List<EndpointState> kept = new ArrayList<>(candidates.subList(0, i));
        for (i++; i < n; i++) {
            EndpointState e = candidates.get(i);
            if (keep.test(e)) {
                kept.add(e);
            }
        }
        return kept;
    }
}
