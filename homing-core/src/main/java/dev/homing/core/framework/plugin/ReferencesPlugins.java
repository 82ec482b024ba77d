package dev.homing.core.framework.plugin;

import java.util.Map;

/**
 * A plugin that names other plugins in its parameters (a profile handler's deciders). Plugins are created in
 * configuration order, so a referenced plugin may be declared after the one that names it, as in llm-d's own
 * {@code pd-epp-config.yaml}; once every plugin exists, the configuration calls this so that a wrong name is a
 * configuration error rather than a failure on the first request.
 */
public interface ReferencesPlugins extends Plugin {

    /**
     * @param plugins every plugin of the configuration, by name
     * @throws PluginConfigException naming the parameter, the missing plugin and the choices there are
     */
    void resolveReferences(Map<String, ? extends Plugin> plugins);
}
