package dev.homing.core.plugin;

/** Creates one plugin type from its parameters; registered under the llm-d type name. */
@FunctionalInterface
public interface PluginFactory {
    Plugin create(String name, Parameters parameters, PluginContext context);
}
