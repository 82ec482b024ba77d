package dev.homing.core.framework.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads structured parameters (a mapping or a list of mappings under one key) with the same rules as the top level:
 * every key is read through a getter with its default, matched to it as Go matches JSON keys to fields (the exact name,
 * else ignoring case), keys nobody read become notices of the enclosing parameters (warnings, as llm-d ignores them),
 * and every message says where in the parameters it is, as the file spells it ({@code profiles.decode},
 * {@code engineConfigs[1].name}). The keys of a string-to-string mapping are data (labels, say), matched by nobody.
 */
public final class NestedParameters {

    private NestedParameters() {
    }

    /** The mapping under {@code key} (empty when absent), read by {@code reader}. */
    public static <T> T mapping(Parameters parameters, String key, Function<Parameters, T> reader) {
        JsonNode node = parameters.node(key);
        String spelt = parameters.spelling(key);
        if (node != null && !node.isObject()) {
            throw new PluginConfigException("parameter '" + spelt + "' must be a mapping, got " + node);
        }
        return read(parameters, node == null ? Parameters.empty() : Parameters.of(node), spelt, reader);
    }

    /** Each mapping of the list under {@code key} (none when absent), read by {@code reader}. */
    public static <T> List<T> list(Parameters parameters, String key, Function<Parameters, T> reader) {
        JsonNode node = parameters.node(key);
        String spelt = parameters.spelling(key);
        List<T> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            throw new PluginConfigException("parameter '" + spelt + "' must be a list, got " + node);
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            String where = spelt + "[" + i + "]";
            if (!item.isObject()) {
                throw new PluginConfigException("parameter '" + where + "' must be a mapping, got " + item);
            }
            out.add(read(parameters, Parameters.of(item), where, reader));
        }
        return out;
    }

    /** The string-to-string mapping under {@code key}, in order (empty when absent). */
    public static Map<String, String> strings(Parameters parameters, String key) {
        JsonNode node = parameters.node(key);
        String spelt = parameters.spelling(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        if (!node.isObject()) {
            throw new PluginConfigException("parameter '" + spelt + "' must be a mapping of strings, got " + node);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new PluginConfigException("parameter '" + spelt + "." + e.getKey() + "' must be a string, got "
                        + e.getValue());
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static <T> T read(Parameters parent, Parameters nested, String where, Function<Parameters, T> reader) {
        T value;
        try {
            value = reader.apply(nested);
        } catch (PluginConfigException e) {
            throw new PluginConfigException("parameter '" + where + "': " + e.getMessage());
        }
        parent.adopt(where, nested);
        return value;
    }
}
