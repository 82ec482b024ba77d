package dev.homing.core.request;

import dev.homing.core.scheduling.CycleKey;

/**
 * The token ids the model server will see for a request (chat template applied), when some plugin obtained them.
 * Precise prefix matching needs them; a token producer puts them in the cycle.
 */
public record PromptTokens(int[] ids) {

    public static final CycleKey<PromptTokens> KEY = CycleKey.of("prompt-tokens", PromptTokens.class);

    public int length() {
        return ids.length;
    }
}
