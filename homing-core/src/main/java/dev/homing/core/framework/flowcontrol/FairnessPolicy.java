package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.plugin.Plugin;
import java.util.Comparator;
import java.util.List;

/**
 * Which flow of a priority band is served next (llm-d's FairnessPolicy). A policy may keep state per band (a
 * round-robin cursor), so each band gets its own {@link Selector}.
 */
public interface FairnessPolicy extends Plugin {

    /** A selector for one band. */
    Selector newSelector();

    /** Picks among a band's flows; called under the controller's lock, one band at a time. */
    interface Selector {

        /**
         * The flow to take the next request from, or null when every flow is empty.
         *
         * @param flows the band's flows, sorted by fairness id; some may be empty
         * @param order the band's ordering policy, to compare the flows' heads
         */
        FlowQueue pick(List<? extends FlowQueue> flows, Comparator<QueuedRequest> order);
    }
}
