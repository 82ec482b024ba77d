package dev.homing.core.config;

import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginRegistry;

/** The configs that ship in the jar, one of which a router runs when given no file ({@link DefaultConfig}). */
public enum BuiltInConfig {

    /** Homing's default profile. */
    DEFAULT(DefaultConfig.RESOURCE),
    /** Precise prefix-cache routing by the pods' KV-cache events ({@code homing up --precise}). */
    PRECISE(DefaultConfig.PRECISE_RESOURCE),
    /** llm-d's disaggregated prefill/decode config ({@code homing up --pd}). */
    PD(DefaultConfig.PD_RESOURCE);

    private final String resource;

    BuiltInConfig(String resource) {
        this.resource = resource;
    }

    /** The resource name, which messages about the config name as its file. */
    public String resource() {
        return resource;
    }

    public String text() {
        return DefaultConfig.read(resource);
    }

    /** @throws IllegalStateException if the shipped file does not resolve (a test catches that first) */
    public ResolvedConfig resolve(PluginRegistry registry, PluginContext ctx) {
        return DefaultConfig.resolve(resource, registry, ctx);
    }
}
