package dev.homing.core.plugins.parser;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code passthrough-parser}, a request parser for any payload, uninterpreted: the model and prompt are
 * unknown, so prompt-based scorers (prefix cache) have nothing to work with. No parameters. A configuration selects it
 * with its parser reference; the router reads which one.
 */
public record PassthroughParser(String name) implements Plugin {

    public static final String TYPE = "passthrough-parser";

    public PassthroughParser {
        if (name == null || name.isBlank()) {
            name = TYPE;
        }
    }

    public static PassthroughParser create(String name, Parameters p, PluginContext ctx) {
        return new PassthroughParser(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
