package dev.homing.bench.workload;

import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Skewed sharing: {@code num_groups} system prompts whose popularity follows Zipf's law with exponent
 * {@code zipf_s} (group k, from 0, is chosen with probability ∝ 1/(k+1)^s), each request a fresh question after its
 * group's system prompt. A few hot prefixes and a long tail of cold ones, as production traffic has.
 */
final class ZipfGroups implements ContentSource {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("num_groups", "32", "system prompts"),
            new WorkloadSpec.Parameter("zipf_s", "1.0", "Zipf exponent: 0 is uniform, larger is more skewed"),
            new WorkloadSpec.Parameter("system_prompt_len", "100", "tokens of each system prompt: N or"
                    + " mean:std_dev:min:max (drawn per group)"),
            new WorkloadSpec.Parameter("question_len", "50", "tokens of each question: N or mean:std_dev:min:max"),
            new WorkloadSpec.Parameter("output_len", "50", "max_tokens of each request: N or mean:std_dev:min:max"));

    /** One pass for closed loop when no count is given: enough draws to show the skew. */
    private static final int ONE_PASS = 1000;

    private final TokenText[] systems;
    private final double[] cumulative;
    private final LengthDistribution question;
    private final LengthDistribution output;
    private final RandomGenerator rng;

    ZipfGroups(Parameters p, RandomGenerator rng) {
        int numGroups = p.integer("num_groups", 1);
        double s = p.decimal("zipf_s", 0, false);
        LengthDistribution system = p.length("system_prompt_len", 0);
        this.question = p.length("question_len", 1);
        this.output = p.length("output_len", 1);
        this.rng = rng;
        systems = new TokenText[numGroups];
        cumulative = new double[numGroups];
        double sum = 0;
        for (int g = 0; g < numGroups; g++) {
            systems[g] = TokenText.words(system.sample(rng), rng);
            sum += Math.pow(g + 1, -s);
            cumulative[g] = sum;
        }
    }

    /** Group k with probability (1/(k+1)^s) / Σ. */
    int group(double uniform) {
        double u = uniform * cumulative[cumulative.length - 1];
        int i = Arrays.binarySearch(cumulative, u);
        int g = i >= 0 ? i + 1 : -i - 1; // the first group whose cumulative weight exceeds u
        return Math.min(g, cumulative.length - 1);
    }

    @Override
    public RequestContent next(int index) {
        int g = group(rng.nextDouble());
        TokenText prompt = systems[g].plus(TokenText.words(question.sample(rng), rng));
        return RequestContent.single(Prompt.text(prompt.text(), prompt.tokens()), output.sample(rng), g);
    }

    @Override
    public int onePass() {
        return ONE_PASS;
    }
}
