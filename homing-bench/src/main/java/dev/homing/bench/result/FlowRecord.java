package dev.homing.bench.result;

/**
 * One request's flow and what admission did with it, beside its {@link RequestRecord} (same index).
 *
 * @param flow       its fairness id, or null for none
 * @param priority   its priority
 * @param queueNanos time held in flow control's queues, from arrival to admission or refusal (0 when admitted or
 *                   refused at once); -1 when the policy has no flow control
 * @param dispatched whether it left for a pod (flow control admitted it, or the policy placed it directly)
 */
public record FlowRecord(String flow, int priority, long queueNanos, boolean dispatched) {

    /** Whether it waited in flow control's queues (arrival strictly before it left them). */
    public boolean waited() {
        return queueNanos > 0;
    }
}
