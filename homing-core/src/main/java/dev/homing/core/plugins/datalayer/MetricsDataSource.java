package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;

/**
 * llm-d's {@code metrics-data-source}: polls every endpoint's Prometheus metrics at
 * {@code scheme://host:port/path} ({@code http}, {@code /metrics}; TLS certificates not verified unless
 * {@code insecureSkipVerify: false}). The router's scraper reads these settings; the plugin itself does no I/O.
 */
public record MetricsDataSource(String name, String scheme, String path, boolean insecureSkipVerify)
        implements Plugin {

    public static final String TYPE = "metrics-data-source";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, MetricsDataSource::create);

    public MetricsDataSource {
        name = HttpSource.nameOr(name, TYPE);
        HttpSource.check(scheme, path);
    }

    static MetricsDataSource create(String name, Parameters p, PluginContext ctx) {
        return new MetricsDataSource(name, p.string("scheme", "http"), p.string("path", "/metrics"),
                p.bool("insecureSkipVerify", true));
    }

    @Override
    public String type() {
        return TYPE;
    }
}
