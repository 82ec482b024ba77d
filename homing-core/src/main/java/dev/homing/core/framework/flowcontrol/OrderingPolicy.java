package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.plugin.Plugin;
import java.util.Comparator;

/** Which request of a flow goes first (llm-d's OrderingPolicy): the least by {@link #order()}. */
public interface OrderingPolicy extends Plugin {

    /** A total order; ties are broken by the controller in arrival order. */
    Comparator<QueuedRequest> order();
}
