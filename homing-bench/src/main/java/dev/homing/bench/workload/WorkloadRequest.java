package dev.homing.bench.workload;

/**
 * One request of a workload.
 *
 * @param arrivalNanos when it is sent, from the start of the run; -1 for closed-loop workloads (sent when a slot frees).
 *                     For a turn that follows its predecessor by a gap ({@code gapNanos >= 0}) it is only the nominal
 *                     time the workload was ordered by (its session's start plus the gaps before it)
 * @param stage        the index of the load stage (QPS step) it belongs to, for per-stage reports
 * @param group        the shared-prefix group (system prompt, conversation, Zipf group, document) it belongs to, or -1
 * @param conversation the multi-turn conversation (session) it continues, or -1; turns of one conversation are sent in
 *                     order
 * @param gapNanos     for a turn after the first: how long after the previous turn's answer it is sent (a user's think
 *                     time, a trace's recorded gap), ignoring {@code arrivalNanos}; -1 to send it at
 *                     {@code max(arrivalNanos, previous turn's end)}
 * @param flow         its flow, sent as {@code x-gateway-inference-fairness-id}, or null for none (the router's
 *                     {@code default-flow})
 * @param priority     its priority (an InferenceObjective's; below 0 is sheddable), 0 unless the workload sets one
 */
public record WorkloadRequest(String id, long arrivalNanos, int stage, String model, Prompt prompt, int maxTokens,
                              boolean ignoreEos, int group, int conversation, int turn, long gapNanos, String flow,
                              int priority) {

    /** A request of no flow and priority 0. */
    public WorkloadRequest(String id, long arrivalNanos, int stage, String model, Prompt prompt, int maxTokens,
                           boolean ignoreEos, int group, int conversation, int turn, long gapNanos) {
        this(id, arrivalNanos, stage, model, prompt, maxTokens, ignoreEos, group, conversation, turn, gapNanos, null,
                0);
    }

    /** A request that is no think-time turn: a turn of it waits only for its predecessor's answer and its arrival. */
    public WorkloadRequest(String id, long arrivalNanos, int stage, String model, Prompt prompt, int maxTokens,
                           boolean ignoreEos, int group, int conversation, int turn) {
        this(id, arrivalNanos, stage, model, prompt, maxTokens, ignoreEos, group, conversation, turn, -1);
    }

    /** Whether it is sent a gap after its predecessor's answer rather than at its arrival time. */
    public boolean followsByGap() {
        return gapNanos >= 0 && conversation >= 0 && turn > 0;
    }
}
