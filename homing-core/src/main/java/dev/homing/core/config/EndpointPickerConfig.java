package dev.homing.core.config;

import java.util.List;

/**
 * llm-d's {@code EndpointPickerConfig} as written, before resolution: what {@link ConfigParser} reads from YAML, with
 * the line of each part, so that whatever is said about it names where it is.
 *
 * @param source         the file name, for messages
 * @param apiVersionLine the line of {@code apiVersion}
 */
public record EndpointPickerConfig(String source, String apiVersion, int apiVersionLine, String kind,
                                   List<FeatureGate> featureGates, List<PluginSpec> plugins,
                                   List<ProfileSpec> schedulingProfiles, PluginRefSpec saturationDetector,
                                   DataLayerSpec dataLayer, FlowControlSpec flowControl, PluginRefSpec parser) {

    public static final String API_VERSION = "llm-d.ai/v1alpha1";
    /** The API group llm-d's config used before it moved out of GIE; still accepted, as llm-d does. */
    public static final String LEGACY_API_VERSION = "inference.networking.x-k8s.io/v1alpha1";
    /**
     * The group GIE's guides write (its flow-control guide, up to 2026-06): no loader of llm-d's reads it, but users
     * copy it from the guide, so it is read as the current one, with a warning.
     */
    public static final String GUIDE_API_VERSION = "config.x-k8s.io/v1alpha1";
    public static final String KIND = "EndpointPickerConfig";

    public EndpointPickerConfig {
        featureGates = List.copyOf(featureGates);
        plugins = List.copyOf(plugins);
        schedulingProfiles = List.copyOf(schedulingProfiles);
    }

    /** One entry of {@code featureGates} and its line. */
    public record FeatureGate(String name, int line) {

        /** The gate it names, without a {@code =true} or {@code =false}. */
        public String gateName() {
            int eq = name.indexOf('=');
            return eq < 0 ? name : name.substring(0, eq);
        }
    }

    /**
     * Whether {@code featureGates} turns {@code name} on: listed as {@code name} or {@code name=true}; the last
     * mention wins, so {@code name=false} (later llm-d's way to turn a gate off) after it turns it off.
     */
    public boolean gate(String name) {
        boolean on = false;
        for (FeatureGate g : featureGates) {
            if (g.gateName().equals(name)) {
                on = !g.name().endsWith("=false");
            }
        }
        return on;
    }

    /** The line of the plugin declared as {@code name}; 0 when none is (a plugin the defaults added). */
    public int line(String name) {
        return plugins.stream().filter(p -> p.name().equals(name)).mapToInt(PluginSpec::line).findFirst().orElse(0);
    }
}
