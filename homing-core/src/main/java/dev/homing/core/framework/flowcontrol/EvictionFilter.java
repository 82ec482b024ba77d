package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.plugin.Plugin;

/** Which dispatched requests may be evicted to make room for more important waiting ones. */
public interface EvictionFilter extends Plugin {

    boolean evictable(InFlightRequest request);
}
