package dev.homing.bench.policy;

import dev.homing.bench.workload.Prompt;

/** The text a router that does not tokenize keys its cache on. */
final class PromptText {

    private PromptText() {
    }

    /**
     * SMG's {@code extract_text_for_routing}: a completion's prompt, or a chat's message contents joined by spaces.
     */
    static String routingText(Prompt prompt) {
        if (!prompt.isChat()) {
            return prompt.text();
        }
        StringBuilder b = new StringBuilder();
        for (Prompt.Message m : prompt.messages()) {
            if (m.content() == null || m.content().isEmpty()) {
                continue;
            }
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append(m.content());
        }
        return b.toString();
    }
}
