package dev.homing.core.plugins.parser;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code openai-parser}, a request parser for the OpenAI API (completions, chat completions, responses,
 * conversations, embeddings; the API is chosen by the path suffix). The default parser, and what Homing's router
 * speaks. No parameters. A configuration selects it with its parser reference; the router reads which one.
 */
public record OpenAiParser(String name) implements Plugin {

    public static final String TYPE = "openai-parser";

    public OpenAiParser {
        if (name == null || name.isBlank()) {
            name = TYPE;
        }
    }

    public static OpenAiParser create(String name, Parameters p, PluginContext ctx) {
        return new OpenAiParser(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
