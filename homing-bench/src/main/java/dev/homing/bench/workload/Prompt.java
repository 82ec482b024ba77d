package dev.homing.bench.workload;

import java.util.List;

/**
 * What a request asks about: a completion prompt or a chat, and, when the workload knows them, the exact token ids the
 * simulator's tokenizer makes of it (so virtual time needs no tokenization; live mode sends the text).
 *
 * @param text     the completion prompt, or null for a chat
 * @param messages the chat messages, or empty for a completion
 * @param tokens   the token ids the simulated engine sees (chat template applied for chats), or null when unknown
 */
public record Prompt(String text, List<Message> messages, int[] tokens) {

    public Prompt {
        messages = List.copyOf(messages);
        if ((text == null) == messages.isEmpty()) {
            throw new IllegalArgumentException("a prompt is either a text or messages");
        }
    }

    public static Prompt text(String text, int[] tokens) {
        return new Prompt(text, List.of(), tokens);
    }

    public static Prompt chat(List<Message> messages, int[] tokens) {
        return new Prompt(null, messages, tokens);
    }

    public boolean isChat() {
        return text == null;
    }

    /** One chat message. */
    public record Message(String role, String content) {
    }
}
