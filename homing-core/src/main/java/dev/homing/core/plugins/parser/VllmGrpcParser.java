package dev.homing.core.plugins.parser;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code vllmgrpc-parser}, a request parser for vLLM's gRPC engine API (Generate, Embed) over HTTP/2. No
 * parameters. A configuration selects it with its parser reference; the router reads which one.
 */
public record VllmGrpcParser(String name) implements Plugin {

    public static final String TYPE = "vllmgrpc-parser";

    public VllmGrpcParser {
        if (name == null || name.isBlank()) {
            name = TYPE;
        }
    }

    public static VllmGrpcParser create(String name, Parameters p, PluginContext ctx) {
        return new VllmGrpcParser(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
