package dev.homing.bench.workload;

/**
 * What one request asks, before it is given an arrival time.
 *
 * @param model        the model it names, or null for the workload's {@code model} parameter
 * @param group        shared-prefix group, or -1
 * @param conversation multi-turn conversation, or -1
 * @param turn         its turn in the conversation, from 0; 0 outside conversations
 * @param gapNanos     see {@link WorkloadRequest#gapNanos()}; -1 when the turn waits only for its predecessor
 * @param flow         see {@link WorkloadRequest#flow()}
 * @param priority     see {@link WorkloadRequest#priority()}
 */
record RequestContent(String model, Prompt prompt, int maxTokens, int group, int conversation, int turn,
                      long gapNanos, String flow, int priority) {

    RequestContent(String model, Prompt prompt, int maxTokens, int group, int conversation, int turn, long gapNanos) {
        this(model, prompt, maxTokens, group, conversation, turn, gapNanos, null, 0);
    }

    RequestContent(String model, Prompt prompt, int maxTokens, int group, int conversation, int turn) {
        this(model, prompt, maxTokens, group, conversation, turn, -1);
    }

    static RequestContent single(Prompt prompt, int maxTokens, int group) {
        return new RequestContent(null, prompt, maxTokens, group, -1, 0);
    }
}
