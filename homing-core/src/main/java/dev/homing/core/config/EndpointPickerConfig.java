package dev.homing.core.config;

import java.util.List;

/**
 * llm-d's {@code EndpointPickerConfig} as written, before resolution: what {@link ConfigParser} reads from YAML.
 *
 * @param source the file name, for messages
 */
public record EndpointPickerConfig(String source, String apiVersion, String kind, List<String> featureGates,
                                   List<PluginSpec> plugins, List<ProfileSpec> schedulingProfiles,
                                   PluginRefSpec saturationDetector, DataLayerSpec dataLayer,
                                   FlowControlSpec flowControl, PluginRefSpec parser) {

    public static final String API_VERSION = "llm-d.ai/v1alpha1";
    /** The API group llm-d's config used before it moved out of GIE; still accepted, as llm-d does. */
    public static final String LEGACY_API_VERSION = "inference.networking.x-k8s.io/v1alpha1";
    public static final String KIND = "EndpointPickerConfig";

    public EndpointPickerConfig {
        featureGates = List.copyOf(featureGates);
        plugins = List.copyOf(plugins);
        schedulingProfiles = List.copyOf(schedulingProfiles);
    }
}
