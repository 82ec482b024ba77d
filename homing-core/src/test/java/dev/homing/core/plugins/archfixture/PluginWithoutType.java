package dev.homing.core.plugins.archfixture;

import dev.homing.core.framework.plugin.NamedPlugin;

/** Breaks "every plugin class declares its PluginType". */
public final class PluginWithoutType extends NamedPlugin {

    public PluginWithoutType(String name) {
        super("without-type-fixture", name);
    }
}
