package dev.homing.core.config;

import java.util.List;

/** One entry of {@code schedulingProfiles:}: a name and the plugins it runs, in order. */
public record ProfileSpec(String name, List<PluginRefSpec> plugins, int line) {
    public ProfileSpec {
        plugins = List.copyOf(plugins);
    }
}
