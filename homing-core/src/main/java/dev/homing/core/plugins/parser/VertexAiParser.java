package dev.homing.core.plugins.parser;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code vertexai-parser}, a request parser for Vertex AI's gRPC PredictionService ChatCompletions; other
 * Vertex AI calls pass uninterpreted. No parameters. A configuration selects it with its parser reference; the router
 * reads which one.
 */
public record VertexAiParser(String name) implements Plugin {

    public static final String TYPE = "vertexai-parser";

    public VertexAiParser {
        if (name == null || name.isBlank()) {
            name = TYPE;
        }
    }

    public static VertexAiParser create(String name, Parameters p, PluginContext ctx) {
        return new VertexAiParser(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
