package dev.homing.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads one YAML mapping strictly: known keys only, each of the expected kind, errors naming the source and line.
 * Pure (no I/O): a config's mappings, and the router's endpoints file, are read with it.
 */
public final class MappingReader {

    private final String source;
    private final String what;
    private final ConfigNode.Mapping mapping;

    private MappingReader(String source, String what, ConfigNode.Mapping mapping) {
        this.source = source;
        this.what = what;
        this.mapping = mapping;
    }

    /**
     * @param what how to name this mapping in messages ("plugin 3", "schedulingProfiles[default]")
     * @param known every key allowed here
     */
    public static MappingReader of(String source, String what, ConfigNode node, Set<String> known)
            throws ConfigException {
        if (!(node instanceof ConfigNode.Mapping m)) {
            throw new ConfigException(source, node.line(), what + " must be a mapping, got " + node.kind());
        }
        for (ConfigNode.Entry e : m.entries().values()) {
            if (!known.contains(e.key())) {
                throw new ConfigException(source, e.keyLine(), "unknown field '" + e.key() + "' in " + what
                        + "; known fields: " + String.join(", ", new TreeSet<>(known)));
            }
        }
        return new MappingReader(source, what, m);
    }

    /** The mapping's own line. */
    public int line() {
        return mapping.line();
    }

    /** The line of {@code key}, or the mapping's when it is absent. */
    public int line(String key) {
        ConfigNode.Entry e = mapping.entries().get(key);
        return e == null ? mapping.line() : e.keyLine();
    }

    public boolean has(String key) {
        ConfigNode v = mapping.get(key);
        return v != null && !(v instanceof ConfigNode.Scalar s && s.isNull());
    }

    /** The value at {@code key}, or null when absent or written as null. */
    public ConfigNode node(String key) {
        ConfigNode v = mapping.get(key);
        return v instanceof ConfigNode.Scalar s && s.isNull() ? null : v;
    }

    /** A string, or null when absent and not required; a required one must not be blank. */
    public String string(String key, boolean required) throws ConfigException {
        ConfigNode v = node(key);
        if (v == null) {
            if (required) {
                throw new ConfigException(source, mapping.line(), what + " needs '" + key + "'");
            }
            return null;
        }
        if (!(v instanceof ConfigNode.Scalar s) || !(s.value() instanceof String text)) {
            throw new ConfigException(source, v.line(), "'" + key + "' in " + what + " must be a string, got " + v.kind());
        }
        if (required && text.isBlank()) {
            throw new ConfigException(source, v.line(), "'" + key + "' in " + what + " must not be empty");
        }
        return text;
    }

    /** A number, or null when absent. */
    public Double number(String key) throws ConfigException {
        ConfigNode v = node(key);
        if (v == null) {
            return null;
        }
        if (v instanceof ConfigNode.Scalar s && s.value() instanceof Number n) {
            return n.doubleValue();
        }
        throw new ConfigException(source, v.line(), "'" + key + "' in " + what + " must be a number, got " + v.kind()
                + (v instanceof ConfigNode.Scalar s && s.value() != null ? " '" + s.text() + "'" : ""));
    }

    public Boolean bool(String key) throws ConfigException {
        ConfigNode v = node(key);
        if (v == null) {
            return null;
        }
        if (v instanceof ConfigNode.Scalar s && s.value() instanceof Boolean b) {
            return b;
        }
        throw new ConfigException(source, v.line(), "'" + key + "' in " + what + " must be true or false, got " + v.kind());
    }

    public List<ConfigNode> list(String key) throws ConfigException {
        ConfigNode v = node(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof ConfigNode.Sequence s)) {
            throw new ConfigException(source, v.line(), "'" + key + "' in " + what + " must be a list, got " + v.kind());
        }
        return s.items();
    }

    public List<String> strings(String key) throws ConfigException {
        List<String> out = new ArrayList<>();
        for (ConfigNode item : list(key)) {
            if (!(item instanceof ConfigNode.Scalar s) || !(s.value() instanceof String text)) {
                throw new ConfigException(source, item.line(), "'" + key + "' in " + what + " must list strings, got "
                        + item.kind());
            }
            out.add(text);
        }
        return out;
    }

    /** A nested {@code {pluginRef: NAME}} mapping, or null when absent. */
    PluginRefSpec pluginRef(String key) throws ConfigException {
        ConfigNode v = node(key);
        if (v == null) {
            return null;
        }
        MappingReader r = of(source, "'" + key + "'", v, Set.of("pluginRef"));
        return new PluginRefSpec(r.string("pluginRef", true), null, r.line("pluginRef"));
    }
}
