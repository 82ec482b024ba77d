package dev.homing.core.framework.scheduling;

import dev.homing.core.framework.request.TokenSource;
import java.time.Duration;
import java.util.Optional;

/**
 * The token ids the model server will see for a request (chat template applied), when some plugin obtained them.
 * Precise prefix matching needs them; a token producer puts them in the cycle.
 */
public record PromptTokens(int[] ids) {

    public static final CycleKey<PromptTokens> KEY = CycleKey.of("prompt-tokens", PromptTokens.class);
    private static final CycleKey<Boolean> ASKED = CycleKey.of("prompt-tokens-asked", Boolean.class);

    /**
     * The request's tokens, asking {@code source} at most once per cycle whichever plugin asks: a token source that
     * failed (a timeout, say) is not asked again by the next plugin, nor under the decision lock. A request routed on
     * load only (embeddings, passthrough) is never tokenized: no plugin matches its prefix.
     *
     * @param source   where to ask; null for none (then only tokens already in the cycle count)
     * @param renderUrl a model server to ask first, or null for any pod
     */
    public static Optional<PromptTokens> obtain(Cycle cycle, TokenSource source, String renderUrl, Duration timeout) {
        PromptTokens t = cycle.get(KEY);
        if (t != null || source == null || cycle.get(ASKED) != null
                || !cycle.request().fields().api().prefixAffinity()) {
            return Optional.ofNullable(t);
        }
        cycle.put(ASKED, Boolean.TRUE);
        Optional<PromptTokens> got = source.tokens(cycle.request(), renderUrl, timeout).map(PromptTokens::new);
        got.ifPresent(tokens -> cycle.put(KEY, tokens));
        return got;
    }

    public int length() {
        return ids.length;
    }
}
