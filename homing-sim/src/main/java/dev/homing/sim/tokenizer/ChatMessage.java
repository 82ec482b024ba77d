package dev.homing.sim.tokenizer;

import java.util.Objects;

/** One chat message as a chat template sees it: a role and its text (the text parts of the content, joined). */
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
    }
}
