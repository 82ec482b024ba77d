package dev.homing.sim.tokenizer;

import java.util.List;

/**
 * Qwen2.5's ChatML template (its {@code tokenizer_config.json}, without tools): a default system prompt when the
 * conversation has none, each message as {@code <|im_start|>role\ncontent<|im_end|>\n}, and
 * {@code <|im_start|>assistant\n} as the generation prompt. Tool results are wrapped as Qwen2.5 does.
 */
public final class ChatTemplate {

    public static final String DEFAULT_SYSTEM_PROMPT =
            "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.";

    private ChatTemplate() {
    }

    public static String render(List<ChatMessage> messages, boolean addGenerationPrompt) {
        StringBuilder b = new StringBuilder(64 + messages.stream().mapToInt(m -> m.content().length() + 32).sum());
        int start = 0;
        if (!messages.isEmpty() && messages.getFirst().role().equals("system")) {
            turn(b, "system", messages.getFirst().content());
            start = 1;
        } else {
            turn(b, "system", DEFAULT_SYSTEM_PROMPT);
        }
        for (int i = start; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if (m.role().equals("tool")) {
                turn(b, "user", "<tool_response>\n" + m.content() + "\n</tool_response>");
            } else {
                turn(b, m.role(), m.content());
            }
        }
        if (addGenerationPrompt) {
            b.append(SimTokenizer.IM_START_TEXT).append("assistant\n");
        }
        return b.toString();
    }

    private static void turn(StringBuilder b, String role, String content) {
        b.append(SimTokenizer.IM_START_TEXT).append(role).append('\n').append(content)
                .append(SimTokenizer.IM_END_TEXT).append('\n');
    }
}
