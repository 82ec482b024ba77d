package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.plugin.Plugin;

/**
 * How full the pool may get before a band's requests stop being dispatched (llm-d's UsageLimitPolicy): a band is
 * served only while the pool's saturation is below its ceiling. The dispatch cycle stops at the first band whose
 * ceiling is reached, so lower bands never pass a higher one that is held back.
 */
public interface UsageLimitPolicy extends Plugin {

    /** The saturation ceiling for requests of {@code priority}, given the pool's saturation now. */
    double ceiling(double saturation, int priority);
}
