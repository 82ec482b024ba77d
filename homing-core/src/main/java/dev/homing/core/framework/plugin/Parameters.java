package dev.homing.core.framework.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.protocol.config.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A plugin's {@code parameters} block. Each getter names its default, so a factory documents its parameters by reading
 * them. The keys a factory never read, here or in the blocks it read through {@link NestedParameters}, and what it said
 * it will not act on ({@link #notice}) come back as {@link #notices()}: warnings for the configuration's reader, never
 * errors (llm-d ignores parameters it does not know). A value of the wrong kind or out of range is an error.
 *
 * <p>Keys match parameters as Go's {@code encoding/json} matches them to a struct's fields, which is how llm-d's
 * factories read their parameters: the exact name, else any key equal to it ignoring case ({@code LruSize} is
 * {@code lruSize}). When several keys spell one parameter, the exact one is read, else the one that sorts last (Go
 * applies every matching key in turn, the last winning, and llm-d's YAML-to-JSON step writes a mapping's keys sorted);
 * the others are warned about as ignored. Messages name the key as the file spells it.
 */
public final class Parameters {

    private final ObjectNode node;
    private final Set<String> read = new LinkedHashSet<>();
    private final Set<String> used = new HashSet<>();
    private final List<ParameterNotice> notices = new ArrayList<>();

    private Parameters(ObjectNode node) {
        this.node = node;
    }

    public static Parameters empty() {
        return new Parameters(JsonNodeFactory.instance.objectNode());
    }

    public static Parameters of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return empty();
        }
        if (!node.isObject()) {
            throw new PluginConfigException("parameters must be a mapping, got " + node.getNodeType().toString().toLowerCase());
        }
        return new Parameters((ObjectNode) node.deepCopy());
    }

    private JsonNode get(String key) {
        read.add(key);
        String spelt = keyFor(key);
        if (spelt == null) {
            return null;
        }
        used.add(spelt);
        JsonNode v = node.get(spelt);
        return v.isNull() ? null : v;
    }

    /** The key of the block that sets {@code parameter}, as Go's JSON decoding matches it (see the class comment). */
    private String keyFor(String parameter) {
        if (node.has(parameter)) {
            return parameter;
        }
        String match = null;
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (k.equalsIgnoreCase(parameter) && (match == null || k.compareTo(match) > 0)) {
                match = k;
            }
        }
        return match;
    }

    /** How the file spells {@code parameter}: the key that sets it, else the parameter's own name. */
    String spelling(String parameter) {
        String k = keyFor(parameter);
        return k == null ? parameter : k;
    }

    public boolean has(String key) {
        return get(key) != null;
    }

    public int integer(String key, int defaultValue) {
        long v = longValue(key, defaultValue);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new PluginConfigException("parameter '" + spelling(key) + "' is out of range: " + v);
        }
        return (int) v;
    }

    public long longValue(String key, long defaultValue) {
        JsonNode v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!v.isIntegralNumber()) { // a quoted "5" is a string, which Go's JSON decoding refuses for an int
            throw new PluginConfigException("parameter '" + spelling(key) + "' must be an integer, got " + describe(v)
                    + (v.isTextual() ? " (a string: write the number without quotes)" : ""));
        }
        if (!v.canConvertToLong()) {
            throw new PluginConfigException("parameter '" + spelling(key) + "' is out of range: " + v);
        }
        return v.longValue();
    }

    public double number(String key, double defaultValue) {
        JsonNode v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!v.isNumber()) {
            throw new PluginConfigException("parameter '" + spelling(key) + "' must be a number, got " + describe(v));
        }
        return v.doubleValue();
    }

    public boolean bool(String key, boolean defaultValue) {
        JsonNode v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!v.isBoolean()) {
            throw new PluginConfigException("parameter '" + spelling(key) + "' must be true or false, got " + describe(v));
        }
        return v.booleanValue();
    }

    public String string(String key, String defaultValue) {
        JsonNode v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!v.isTextual()) { // Go's JSON decoding refuses a number or a boolean for a string field
            throw new PluginConfigException("parameter '" + spelling(key) + "' must be a string, got " + describe(v));
        }
        return v.asText();
    }

    public Duration duration(String key, Duration defaultValue) {
        JsonNode v = get(key);
        if (v == null) {
            return defaultValue;
        }
        if (v.isNumber()) {
            return Duration.ofNanos(v.longValue()); // Go's JSON form of a duration is nanoseconds
        }
        try {
            return GoDuration.parse(v.asText());
        } catch (IllegalArgumentException e) {
            throw new PluginConfigException("parameter '" + spelling(key) + "': " + e.getMessage());
        }
    }

    public List<String> strings(String key) {
        JsonNode v = get(key);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!v.isArray()) {
            throw new PluginConfigException("parameter '" + spelling(key) + "' must be a list of strings, got " + describe(v));
        }
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new PluginConfigException("parameter '" + spelling(key) + "' must be a list of strings, got "
                        + describe(v));
            }
            out.add(e.asText());
        }
        return out;
    }

    /** A nested value as is, for plugins with structured parameters. */
    public JsonNode node(String key) {
        return get(key);
    }

    /**
     * Tells the configuration's reader that {@code key} (null: the plugin as a whole) was read but will not be acted
     * on, and why. The plugin still loads.
     */
    public void notice(String key, String message) {
        notices.add(new ParameterNotice(key == null ? null : spelling(key), message));
    }

    /** Takes over what the reader of the block at {@code where} left: its unknown keys and its notices. */
    void adopt(String where, Parameters nested) {
        for (ParameterNotice n : nested.notices()) {
            notices.add(n.under(where));
        }
    }

    /**
     * What the reader should be told: first each key present that no getter asked for (with the keys known beside
     * it), then, in the order they were made, the notices of this block and of the blocks read under it.
     */
    public List<ParameterNotice> notices() {
        List<ParameterNotice> out = new ArrayList<>();
        Set<String> known = new TreeSet<>(read);
        for (String k : unknownKeys()) {
            String parameter = known.stream().filter(k::equalsIgnoreCase).findFirst().orElse(null);
            out.add(new ParameterNotice(k, parameter != null
                    ? "ignored: another spelling of parameter '" + parameter + "', which '" + spelling(parameter)
                    + "' sets here (llm-d matches parameter names ignoring case and applies one of them; keep one)"
                    : "unknown, ignored (no parameter has this name, in any case; llm-d ignores it too); known here: "
                    + (known.isEmpty() ? "none" : String.join(", ", known))));
        }
        out.addAll(notices);
        return List.copyOf(new LinkedHashSet<>(out)); // a block read twice (an older place for it) says it once
    }

    /** Keys present in the config that set no parameter a getter asked for. */
    public Set<String> unknownKeys() {
        Set<String> unknown = new TreeSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!used.contains(k)) {
                unknown.add(k);
            }
        }
        return unknown;
    }

    /** Keys the factory asked for: the parameters it knows. */
    public Set<String> knownKeys() {
        return Set.copyOf(read);
    }

    private static String describe(JsonNode v) {
        return v.isTextual() ? "'" + v.asText() + "'" : v.toString();
    }
}
