package dev.homing.core.config;

import dev.homing.protocol.config.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an {@code EndpointPickerConfig} strictly, as Kubernetes decodes it: unknown fields and values of the wrong
 * kind are errors that name their line. Meaning (do the references resolve, are the types known) is checked by
 * {@link ConfigResolver}.
 */
public final class ConfigParser {

    private static final Set<String> TOP = Set.of("apiVersion", "kind", "featureGates", "plugins",
            "schedulingProfiles", "saturationDetector", "dataLayer", "flowControl", "parser");
    private static final Set<String> BAND = Set.of("priority", "priorityName", "maxBytes", "maxRequests",
            "orderingPolicyRef", "fairnessPolicyRef");

    private ConfigParser() {
    }

    public static EndpointPickerConfig parse(String text, String source) throws ConfigException {
        ConfigNode root = YamlReader.read(text, source);
        if (root == null) {
            throw new ConfigException(source, 0, "the file is empty; expected an EndpointPickerConfig");
        }
        MappingReader top = MappingReader.of(source, "an EndpointPickerConfig", root, TOP);
        String apiVersion = top.string("apiVersion", true);
        if (!apiVersion.equals(EndpointPickerConfig.API_VERSION) && !apiVersion.equals(EndpointPickerConfig.LEGACY_API_VERSION)
                && !apiVersion.equals(EndpointPickerConfig.GUIDE_API_VERSION)) {
            throw new ConfigException(source, top.line("apiVersion"), "unsupported apiVersion '" + apiVersion
                    + "'; known: " + EndpointPickerConfig.API_VERSION + ", " + EndpointPickerConfig.LEGACY_API_VERSION);
        }
        String kind = top.string("kind", true);
        if (!kind.equals(EndpointPickerConfig.KIND)) {
            throw new ConfigException(source, top.line("kind"), "unsupported kind '" + kind + "'; expected "
                    + EndpointPickerConfig.KIND);
        }
        return new EndpointPickerConfig(source, apiVersion, top.line("apiVersion"), kind, featureGates(top),
                plugins(source, top), profiles(source, top), top.pluginRef("saturationDetector"), dataLayer(source, top),
                flowControl(source, top), top.pluginRef("parser"));
    }

    private static List<EndpointPickerConfig.FeatureGate> featureGates(MappingReader top) throws ConfigException {
        List<String> names = top.strings("featureGates");
        List<ConfigNode> items = top.list("featureGates");
        List<EndpointPickerConfig.FeatureGate> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            out.add(new EndpointPickerConfig.FeatureGate(names.get(i), items.get(i).line()));
        }
        return out;
    }

    private static List<PluginSpec> plugins(String source, MappingReader top) throws ConfigException {
        List<PluginSpec> out = new ArrayList<>();
        int i = 0;
        for (ConfigNode item : top.list("plugins")) {
            MappingReader p = MappingReader.of(source, "plugins[" + i++ + "]", item, Set.of("name", "type", "parameters"));
            String type = p.string("type", true);
            String name = p.string("name", false);
            ConfigNode params = p.node("parameters");
            if (params != null && !(params instanceof ConfigNode.Mapping)) {
                throw new ConfigException(source, params.line(), "'parameters' of plugin " + type
                        + " must be a mapping, got " + params.kind());
            }
            out.add(new PluginSpec(name == null || name.isBlank() ? type : name, type, params, p.line()));
        }
        return out;
    }

    private static List<ProfileSpec> profiles(String source, MappingReader top) throws ConfigException {
        List<ProfileSpec> out = new ArrayList<>();
        int i = 0;
        for (ConfigNode item : top.list("schedulingProfiles")) {
            MappingReader p = MappingReader.of(source, "schedulingProfiles[" + i++ + "]", item, Set.of("name", "plugins"));
            String name = p.string("name", true);
            List<PluginRefSpec> refs = new ArrayList<>();
            for (ConfigNode ref : p.list("plugins")) {
                MappingReader r = MappingReader.of(source, "a plugin of profile " + name, ref, Set.of("pluginRef", "weight"));
                refs.add(new PluginRefSpec(r.string("pluginRef", true), r.number("weight"), r.line()));
            }
            out.add(new ProfileSpec(name, refs, p.line()));
        }
        return out;
    }

    private static DataLayerSpec dataLayer(String source, MappingReader top) throws ConfigException {
        ConfigNode node = top.node("dataLayer");
        if (node == null) {
            return null;
        }
        MappingReader d = MappingReader.of(source, "dataLayer", node, Set.of("injectDefaults", "sources", "discovery", "endpoints"));
        List<DataLayerSpec.Source> sources = new ArrayList<>();
        for (ConfigNode s : d.list("sources")) {
            MappingReader r = MappingReader.of(source, "a dataLayer source", s, Set.of("pluginRef", "extractors"));
            List<PluginRefSpec> extractors = new ArrayList<>();
            for (ConfigNode e : r.list("extractors")) {
                MappingReader x = MappingReader.of(source, "an extractor", e, Set.of("pluginRef"));
                extractors.add(new PluginRefSpec(x.string("pluginRef", true), null, x.line()));
            }
            sources.add(new DataLayerSpec.Source(new PluginRefSpec(r.string("pluginRef", true), null, r.line()), extractors));
        }
        PluginRefSpec discovery = d.pluginRef("discovery");
        if (discovery == null) {
            discovery = d.pluginRef("endpoints");
        }
        return new DataLayerSpec(d.bool("injectDefaults"), sources, discovery);
    }

    private static FlowControlSpec flowControl(String source, MappingReader top) throws ConfigException {
        ConfigNode node = top.node("flowControl");
        if (node == null) {
            return null;
        }
        MappingReader f = MappingReader.of(source, "flowControl", node, Set.of("maxBytes", "maxRequests",
                "defaultRequestTTL", "noEndpointRequestTTL", "defaultPriorityBand", "defaultNegativePriorityBand",
                "priorityBands", "usageLimitPolicyPluginRef", "enableEviction", "saturationDetector"));
        List<FlowControlSpec.Band> bands = new ArrayList<>();
        for (ConfigNode b : f.list("priorityBands")) {
            bands.add(band(source, b, "a priority band"));
        }
        ConfigNode def = f.node("defaultPriorityBand");
        ConfigNode neg = f.node("defaultNegativePriorityBand");
        return new FlowControlSpec(quantity(source, f, "maxBytes"), quantity(source, f, "maxRequests"),
                duration(source, f, "defaultRequestTTL"), duration(source, f, "noEndpointRequestTTL"),
                def == null ? null : band(source, def, "defaultPriorityBand"),
                neg == null ? null : band(source, neg, "defaultNegativePriorityBand"),
                bands, f.string("usageLimitPolicyPluginRef", false), f.bool("enableEviction"),
                f.pluginRef("saturationDetector"));
    }

    private static FlowControlSpec.Band band(String source, ConfigNode node, String what) throws ConfigException {
        if (!(node instanceof ConfigNode.Mapping m)) {
            throw new ConfigException(source, node.line(), what + " must be a mapping, got " + node.kind());
        }
        Map<String, Object> other = new LinkedHashMap<>();
        for (ConfigNode.Entry e : m.entries().values()) {
            if (!BAND.contains(e.key())) {
                other.put(e.key(), e.value() instanceof ConfigNode.Scalar s ? s.value() : e.value());
            }
        }
        MappingReader b = MappingReader.of(source, what, node, m.entries().keySet());
        Double priority = b.number("priority");
        if (priority != null && priority != Math.rint(priority)) {
            throw new ConfigException(source, b.line("priority"), "'priority' in " + what + " must be an integer");
        }
        return new FlowControlSpec.Band(priority == null ? null : priority.intValue(), b.string("priorityName", false),
                quantity(source, b, "maxBytes"), quantity(source, b, "maxRequests"),
                b.string("orderingPolicyRef", false), b.string("fairnessPolicyRef", false), other, node.line());
    }

    private static Long quantity(String source, MappingReader r, String key) throws ConfigException {
        ConfigNode v = r.node(key);
        if (v == null) {
            return null;
        }
        if (v instanceof ConfigNode.Scalar s && s.value() != null && !(s.value() instanceof Boolean)) {
            try {
                return Quantity.parse(s.text());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(source, v.line(), "'" + key + "': " + e.getMessage());
            }
        }
        throw new ConfigException(source, v.line(), "'" + key + "' must be a quantity (like 512Mi), got " + v.kind());
    }

    private static Duration duration(String source, MappingReader r, String key) throws ConfigException {
        ConfigNode v = r.node(key);
        if (v == null) {
            return null;
        }
        if (v instanceof ConfigNode.Scalar s && s.value() instanceof Number n) {
            return Duration.ofNanos(n.longValue());
        }
        if (v instanceof ConfigNode.Scalar s && s.value() instanceof String text) {
            try {
                return GoDuration.parse(text);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(source, v.line(), "'" + key + "': " + e.getMessage());
            }
        }
        throw new ConfigException(source, v.line(), "'" + key + "' must be a duration (like 30s), got " + v.kind());
    }
}
