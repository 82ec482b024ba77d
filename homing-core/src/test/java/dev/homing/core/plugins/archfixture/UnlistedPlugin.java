package dev.homing.core.plugins.archfixture;

import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;

/** Declares its PluginType (keeping that rule) but is missing from BuiltIns.TYPES (breaking the other). */
public final class UnlistedPlugin extends NamedPlugin {

    public static final String TYPE = "unlisted-fixture";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new UnlistedPlugin(name));

    public UnlistedPlugin(String name) {
        super(TYPE, name);
    }
}
