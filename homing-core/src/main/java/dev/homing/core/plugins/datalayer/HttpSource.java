package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.PluginConfigException;

/** Checks shared by the data sources that poll each endpoint over HTTP. */
final class HttpSource {

    private HttpSource() {
    }

    static void check(String scheme, String path) {
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new PluginConfigException("parameter 'scheme' must be 'http' or 'https', got '" + scheme + "'");
        }
        if (path == null || !path.startsWith("/")) {
            throw new PluginConfigException("parameter 'path' must start with '/', got '" + path + "'");
        }
    }

    static String nameOr(String name, String type) {
        return name == null || name.isBlank() ? type : name;
    }
}
