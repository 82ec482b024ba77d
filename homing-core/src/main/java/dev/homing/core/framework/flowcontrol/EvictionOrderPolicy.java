package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.plugin.Plugin;
import java.util.Comparator;

/** Which evictable request goes first: the least by {@link #order()}. */
public interface EvictionOrderPolicy extends Plugin {

    Comparator<InFlightRequest> order();
}
