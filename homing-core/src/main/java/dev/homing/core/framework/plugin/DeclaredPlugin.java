package dev.homing.core.framework.plugin;

/**
 * A plugin an llm-d configuration declares that takes no parameters and holds no behaviour here: its name and type
 * are what a configuration refers to and what the router reads (which request parser a config selects), or its job
 * is done elsewhere in Homing (discovery announces endpoint changes; the models scrape reads {@code /v1/models}).
 */
public final class DeclaredPlugin extends NamedPlugin {

    public DeclaredPlugin(String type, String name) {
        super(type, name);
    }

    /** A type whose plugins are declared only. */
    public static PluginType type(String name) {
        return PluginType.of(name, (instance, p, ctx) -> new DeclaredPlugin(name, instance));
    }
}
