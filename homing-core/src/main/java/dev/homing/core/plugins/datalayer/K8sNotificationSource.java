package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;

/**
 * llm-d's {@code k8s-notification-source}: watches one Kubernetes resource kind and tells its extractors of changes.
 * {@code version} and {@code kind} are required, {@code group} is empty for core resources. Without an instance name
 * it is named after the kind, as llm-d names it ({@code group/version, Kind=kind}; {@code /v1, Kind=Pod} for pods).
 */
public record K8sNotificationSource(String name, String group, String version, String kind) implements Plugin {

    public static final String TYPE = "k8s-notification-source";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, K8sNotificationSource::create);

    public K8sNotificationSource {
        if (version == null || version.isEmpty()) {
            throw new PluginConfigException("parameter 'version' is required (with 'kind', and 'group' for non-core "
                    + "resources)");
        }
        if (kind == null || kind.isEmpty()) {
            throw new PluginConfigException("parameter 'kind' is required (with 'version', and 'group' for non-core "
                    + "resources)");
        }
        if (group == null) {
            group = "";
        }
        if (name == null || name.isBlank()) {
            name = group + "/" + version + ", Kind=" + kind; // Go's GroupVersionKind.String()
        }
    }

    static K8sNotificationSource create(String name, Parameters p, PluginContext ctx) {
        return new K8sNotificationSource(name, p.string("group", ""), p.string("version", null), p.string("kind", null));
    }

    @Override
    public String type() {
        return TYPE;
    }
}
