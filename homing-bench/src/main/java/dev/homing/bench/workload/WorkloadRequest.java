package dev.homing.bench.workload;

/**
 * One request of a workload.
 *
 * @param arrivalNanos when it is sent, from the start of the run; -1 for closed-loop workloads (sent when a slot frees)
 * @param stage        the index of the load stage (QPS step) it belongs to, for per-stage reports
 * @param group        the shared-prefix group (system prompt, conversation, Zipf group) it belongs to, or -1
 * @param conversation the multi-turn conversation it continues, or -1; turns of one conversation are sent in order
 */
public record WorkloadRequest(String id, long arrivalNanos, int stage, String model, Prompt prompt, int maxTokens,
                              boolean ignoreEos, int group, int conversation, int turn) {
}
