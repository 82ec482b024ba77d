package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.QueuedRequest;

/** What flow control reports, for metrics (llm-d's {@code inference_extension_flow_control_*}). */
public interface FlowListener {

    FlowListener NONE = new FlowListener() {
    };

    /**
     * A request left flow control.
     *
     * @param outcome     llm-d's QueueOutcome name: {@code Dispatched}, {@code RejectedCapacity},
     *                    {@code EvictedTTL}, {@code EvictedContextCancelled}, {@code RejectedOther}
     * @param queuedNanos how long it was held
     */
    default void left(QueuedRequest request, String outcome, long queuedNanos) {
    }

    /** One dispatch cycle ran, taking {@code nanos}. */
    default void cycle(long nanos) {
    }
}
