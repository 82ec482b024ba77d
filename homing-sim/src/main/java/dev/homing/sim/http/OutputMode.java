package dev.homing.sim.http;

import java.util.Locale;

/** What a simulated pod answers with (llm-d-inference-sim's {@code --mode}). */
public enum OutputMode {
    /** Random vocabulary words from the pod's seeded generator; may end early unless {@code ignore_eos}. */
    RANDOM,
    /** The prompt (completions) or the last user message (chat) again, then the end-of-sequence token. */
    ECHO;

    public static OutputMode of(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown mode '" + name + "'; known: random, echo", e);
        }
    }
}
