package dev.homing.bench.workload;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * inference-perf's {@code shared_prefix} data: {@code num_groups} system prompts of {@code system_prompt_len} tokens,
 * each followed by {@code num_prompts_per_group} questions of {@code question_len} tokens, sent as completion prompts
 * (system prompt then question, joined by the question's leading space). All prompts are built first, shuffled once,
 * and request i sends prompt {@code i mod (groups × prompts per group)}. Question and output lengths are drawn per
 * prompt when given as distributions; {@code output_len} is sent as {@code max_tokens}.
 */
final class SharedPrefix implements ContentSource {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("num_groups", "10", "groups, each with its own system prompt"
                    + " (alias num_unique_system_prompts)"),
            new WorkloadSpec.Parameter("num_prompts_per_group", "10", "questions per group"
                    + " (alias num_users_per_system_prompt)"),
            new WorkloadSpec.Parameter("system_prompt_len", "100", "tokens of each group's system prompt: N or"
                    + " mean:std_dev:min:max (drawn per group)"),
            new WorkloadSpec.Parameter("question_len", "50", "tokens of each question: N or mean:std_dev:min:max"),
            new WorkloadSpec.Parameter("output_len", "50", "max_tokens of each prompt: N or mean:std_dev:min:max"));

    private final Prompt[] prompts;
    private final int[] maxTokens;
    private final int[] groups;

    SharedPrefix(Parameters p, RandomGenerator rng) {
        int numGroups = p.integer("num_groups", 1);
        int perGroup = p.integer("num_prompts_per_group", 1);
        LengthDistribution system = p.length("system_prompt_len", 0);
        LengthDistribution question = p.length("question_len", 1);
        LengthDistribution output = p.length("output_len", 1);
        int n = Math.multiplyExact(numGroups, perGroup);
        prompts = new Prompt[n];
        maxTokens = new int[n];
        groups = new int[n];
        for (int g = 0, i = 0; g < numGroups; g++) {
            TokenText sys = TokenText.words(system.sample(rng), rng);
            for (int q = 0; q < perGroup; q++, i++) {
                TokenText prompt = sys.plus(TokenText.words(question.sample(rng), rng));
                prompts[i] = Prompt.text(prompt.text(), prompt.tokens());
                maxTokens[i] = output.sample(rng);
                groups[i] = g;
            }
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            swap(prompts, i, j);
            swap(maxTokens, i, j);
            swap(groups, i, j);
        }
    }

    @Override
    public RequestContent next(int index) {
        int i = index % prompts.length;
        return RequestContent.single(prompts[i], maxTokens[i], groups[i]);
    }

    @Override
    public int onePass() {
        return prompts.length;
    }

    private static void swap(Object[] a, int i, int j) {
        Object t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
