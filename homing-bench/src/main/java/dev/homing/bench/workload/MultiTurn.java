package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Multi-turn chats, inference-perf's {@code enable_multi_turn_chat} made a chat: {@code num_groups} system prompts,
 * {@code num_prompts_per_group} users per system prompt, each holding a conversation of up to {@code num_turns}
 * turns. Every turn resends the whole conversation (system prompt, earlier questions, an assistant reply of exactly
 * the earlier turn's {@code output_len} tokens standing in for the real answer) plus a new question, so each turn's
 * prompt extends the previous one.
 *
 * <p>As in inference-perf, users are shuffled once and request i belongs to user {@code i mod users}, round
 * {@code i / users}; after {@code num_turns} rounds a user starts a new conversation under the same system prompt.
 * A turn can only be sent once the previous turn of its conversation has been answered: drivers send a request no
 * earlier than its arrival time and no earlier than the end of the request with the same {@code conversation} and
 * {@code turn − 1}, which always comes before it in the workload.
 */
final class MultiTurn implements ContentSource {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("num_groups", "10", "system prompts"),
            new WorkloadSpec.Parameter("num_prompts_per_group", "10", "users (conversations at a time) per system"
                    + " prompt"),
            new WorkloadSpec.Parameter("num_turns", "5", "turns of a conversation before its user starts a new one"),
            new WorkloadSpec.Parameter("system_prompt_len", "100", "tokens of each system prompt: N or"
                    + " mean:std_dev:min:max (drawn per group)"),
            new WorkloadSpec.Parameter("question_len", "50", "tokens of each user message: N or"
                    + " mean:std_dev:min:max"),
            new WorkloadSpec.Parameter("output_len", "50", "max_tokens of each turn, and the length of the assistant"
                    + " reply later turns carry: N or mean:std_dev:min:max"));

    private final int perGroup;
    private final int turns;
    private final TokenText[] systems;
    private final LengthDistribution question;
    private final LengthDistribution output;
    private final int[] users;
    private final List<List<ChatTokens.Turn>> histories;
    private final RandomGenerator rng;

    MultiTurn(Parameters p, RandomGenerator rng) {
        int numGroups = p.integer("num_groups", 1);
        this.perGroup = p.integer("num_prompts_per_group", 1);
        this.turns = p.integer("num_turns", 1);
        LengthDistribution system = p.length("system_prompt_len", 0);
        this.question = p.length("question_len", 1);
        this.output = p.length("output_len", 1);
        this.rng = rng;
        systems = new TokenText[numGroups];
        for (int g = 0; g < numGroups; g++) {
            systems[g] = TokenText.words(system.sample(rng), rng);
        }
        int n = Math.multiplyExact(numGroups, perGroup);
        users = new int[n];
        for (int i = 0; i < n; i++) {
            users[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = users[i];
            users[i] = users[j];
            users[j] = t;
        }
        histories = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            histories.add(new ArrayList<>());
        }
    }

    @Override
    public RequestContent next(int index) {
        int user = users[index % users.length];
        int round = index / users.length;
        int turn = round % turns;
        int conversation = user + users.length * (round / turns);
        int group = user / perGroup;
        List<ChatTokens.Turn> history = histories.get(user);
        if (turn == 0) {
            history.clear();
            if (systems[group].length() > 0) {
                history.add(new ChatTokens.Turn("system", systems[group]));
            }
        }
        history.add(new ChatTokens.Turn("user", TokenText.words(question.sample(rng), rng)));
        Prompt prompt = ChatTokens.prompt(history);
        int maxTokens = output.sample(rng);
        history.add(new ChatTokens.Turn("assistant", TokenText.words(maxTokens, rng)));
        return new RequestContent(null, prompt, maxTokens, group, conversation, turn);
    }

    @Override
    public int onePass() {
        return users.length * turns;
    }
}
