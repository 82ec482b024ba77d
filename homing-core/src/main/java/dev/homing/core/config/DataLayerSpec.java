package dev.homing.core.config;

import java.util.List;

/**
 * {@code dataLayer:}: where endpoint data comes from. Homing's router scrapes metrics and serves models itself; the
 * section is read so that llm-d configs load unchanged and their references are checked.
 */
public record DataLayerSpec(Boolean injectDefaults, List<Source> sources, PluginRefSpec discovery) {

    public DataLayerSpec {
        sources = List.copyOf(sources);
    }

    /** A data source and the extractors fed by it. */
    public record Source(PluginRefSpec source, List<PluginRefSpec> extractors) {
        public Source {
            extractors = List.copyOf(extractors);
        }
    }
}
