package dev.homing.core.framework.plugin;

/** Anything a configuration can name: llm-d's type name and the instance name (which defaults to the type). */
public interface Plugin {
    String type();

    String name();
}
