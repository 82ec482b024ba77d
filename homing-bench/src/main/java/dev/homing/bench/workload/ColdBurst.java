package dev.homing.bench.workload;

import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.List;

/**
 * The reference demo's cold requests: "Write one sentence about topic number i in cloud computing." for i = 1, 2,
 * ..., nothing shared beyond the first few tokens, by default 30 of them at once with {@code max_tokens} 20 and the
 * model free to stop early.
 */
final class ColdBurst implements ContentSource {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("output_len", "20", "max_tokens of each request"));

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    private final int maxTokens;

    ColdBurst(Parameters p) {
        this.maxTokens = p.integer("output_len", 1);
    }

    static String text(int topic) {
        return "Write one sentence about topic number " + topic + " in cloud computing.";
    }

    @Override
    public RequestContent next(int index) {
        String text = text(index + 1);
        return RequestContent.single(Prompt.text(text, TOKENIZER.encode(text)), maxTokens, -1);
    }

    @Override
    public int onePass() {
        return 30;
    }
}
