package dev.homing.core.framework.flowcontrol;

/** One flow's queue within a priority band, as fairness policies see it. */
public interface FlowQueue {

    /** The flow's {@code x-gateway-inference-fairness-id}. */
    String fairnessId();

    int size();

    /** The request its ordering policy would dispatch next, or null when empty. */
    QueuedRequest head();
}
