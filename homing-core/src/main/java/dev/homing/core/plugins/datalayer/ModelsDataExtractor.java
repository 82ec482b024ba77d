package dev.homing.core.plugins.datalayer;

import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;

/**
 * llm-d's {@code models-data-extractor}: turns a {@code /v1/models} answer into the endpoint's served models (id and
 * LoRA parent). No parameters.
 */
public record ModelsDataExtractor(String name) implements Plugin {

    public static final String TYPE = "models-data-extractor";

    public ModelsDataExtractor {
        name = HttpSource.nameOr(name, TYPE);
    }

    public static ModelsDataExtractor create(String name, Parameters p, PluginContext ctx) {
        return new ModelsDataExtractor(name);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
