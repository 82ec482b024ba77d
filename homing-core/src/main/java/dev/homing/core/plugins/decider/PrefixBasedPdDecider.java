package dev.homing.core.plugins.decider;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PdDecider;
import dev.homing.core.framework.scheduling.PrefixMatch;

/**
 * llm-d's {@code prefix-based-pd-decider}: prefill remotely when the part of the prompt the decode endpoint does not
 * hold is long enough to be worth the KV transfer, {@code inputTokens − matchedBlocks · tokensPerBlock ≥
 * nonCachedTokens}. {@code nonCachedTokens} 0 (the default) disables disaggregation; {@code promptTokens} (0, off)
 * additionally requires a prompt of at least that many tokens. Input tokens are exact for token-id prompts, else
 * the prompt's bytes / 4. Without prefix information there is no disaggregation, as in llm-d.
 */
public final class PrefixBasedPdDecider extends NamedPlugin implements PdDecider {

    public static final String TYPE = "prefix-based-pd-decider";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PrefixBasedPdDecider::create);

    private final int nonCachedTokens;
    private final int promptTokens;

    public PrefixBasedPdDecider(String name, int nonCachedTokens, int promptTokens) {
        super(TYPE, name);
        if (nonCachedTokens < 0) {
            throw new PluginConfigException("parameter 'nonCachedTokens' must be >= 0, got " + nonCachedTokens);
        }
        if (promptTokens < 0) {
            throw new PluginConfigException("parameter 'promptTokens' must be >= 0, got " + promptTokens);
        }
        this.nonCachedTokens = nonCachedTokens;
        this.promptTokens = promptTokens;
    }

    static PrefixBasedPdDecider create(String name, Parameters p, PluginContext ctx) {
        return new PrefixBasedPdDecider(name, p.integer("nonCachedTokens", 0), p.integer("promptTokens", 0));
    }

    @Override
    public boolean disaggregate(Cycle cycle, EndpointState decodeTarget) {
        if (nonCachedTokens == 0 || decodeTarget == null) {
            return false;
        }
        long input = cycle.promptTokens();
        if ((promptTokens > 0 && input < promptTokens) || input < nonCachedTokens) {
            return false;
        }
        if (cycle.get(PrefixMatch.KEY) == null) {
            return false;
        }
        return input - PrefixMatch.cachedTokens(cycle, decodeTarget, input) >= nonCachedTokens;
    }
}
