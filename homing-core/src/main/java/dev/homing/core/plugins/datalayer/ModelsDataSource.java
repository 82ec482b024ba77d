package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;

/**
 * llm-d's {@code models-data-source}: polls every endpoint's model list at {@code scheme://host:port/path}
 * ({@code http}, {@code /v1/models}; {@code insecureSkipVerify} true). Read by the router's catalog; no I/O here.
 */
public record ModelsDataSource(String name, String scheme, String path, boolean insecureSkipVerify) implements Plugin {

    public static final String TYPE = "models-data-source";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ModelsDataSource::create);

    public ModelsDataSource {
        name = HttpSource.nameOr(name, TYPE);
        HttpSource.check(scheme, path);
    }

    static ModelsDataSource create(String name, Parameters p, PluginContext ctx) {
        return new ModelsDataSource(name, p.string("scheme", "http"), p.string("path", "/v1/models"),
                p.bool("insecureSkipVerify", true));
    }

    @Override
    public String type() {
        return TYPE;
    }
}
