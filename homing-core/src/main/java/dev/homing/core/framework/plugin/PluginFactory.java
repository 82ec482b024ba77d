package dev.homing.core.framework.plugin;

/** Makes a plugin of one type from its parameters (llm-d's plugin factory function). */
@FunctionalInterface
public interface PluginFactory {
    Plugin create(String name, Parameters parameters, PluginContext context);
}
