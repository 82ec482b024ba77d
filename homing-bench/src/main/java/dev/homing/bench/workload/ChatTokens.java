package dev.homing.bench.workload;

import dev.homing.sim.tokenizer.ChatTemplate;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chat prompts whose template-applied tokens (what the engine sees) are assembled from the messages' known tokens
 * instead of tokenizing the whole rendered conversation again at every turn. The layout is the simulator's Qwen2.5
 * ChatML template: {@code <|im_start|>role\ncontent<|im_end|>\n} per message, a default system message when the
 * conversation has none, then {@code <|im_start|>assistant\n}. Content made of vocabulary words starts with a space,
 * so the newline before it is always its own token and the pieces join exactly.
 */
final class ChatTokens {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();
    private static final int[] NEWLINE = TOKENIZER.encode("\n");
    private static final int[] DEFAULT_SYSTEM = TOKENIZER.encode(ChatTemplate.DEFAULT_SYSTEM_PROMPT);

    private ChatTokens() {
    }

    /** One message of a conversation being built. */
    record Turn(String role, TokenText content) {
    }

    /** The prompt asking for the next assistant message after {@code turns}. */
    static Prompt prompt(List<Turn> turns) {
        Buffer b = new Buffer();
        List<Prompt.Message> messages = new ArrayList<>(turns.size());
        if (turns.isEmpty() || !turns.getFirst().role().equals("system")) {
            b.message("system", DEFAULT_SYSTEM);
        }
        for (Turn t : turns) {
            if (t.role().equals("tool")) {
                throw new IllegalArgumentException("tool messages are not assembled here");
            }
            b.message(t.role(), t.content().tokens());
            messages.add(new Prompt.Message(t.role(), t.content().text()));
        }
        b.add(SimTokenizer.IM_START).add(TOKENIZER.encode("assistant")).add(NEWLINE);
        return Prompt.chat(messages, b.toArray());
    }

    private static final class Buffer {
        private int[] a = new int[256];
        private int n;

        void message(String role, int[] content) {
            add(SimTokenizer.IM_START).add(TOKENIZER.encode(role)).add(NEWLINE).add(content)
                    .add(SimTokenizer.IM_END).add(NEWLINE);
        }

        Buffer add(int id) {
            return add(new int[] {id});
        }

        Buffer add(int[] ids) {
            if (n + ids.length > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, n + ids.length));
            }
            System.arraycopy(ids, 0, a, n, ids.length);
            n += ids.length;
            return this;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }
}
