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
 * every key is read through a getter with its default, keys nobody read become notices of the enclosing parameters
 * (warnings, as llm-d ignores them), and every message says where in the parameters it is ({@code profiles.decode},
 * {@code engineConfigs[1].name}).
 */
public final class NestedParameters {

    private NestedParameters() {
    }

    /** The mapping under {@code key} (empty when absent), read by {@code reader}. */
    public static <T> T mapping(Parameters parameters, String key, Function<Parameters, T> reader) {
        JsonNode node = parameters.node(key);
        if (node != null && !node.isObject()) {
            throw new PluginConfigException("parameter '" + key + "' must be a mapping, got " + node);
        }
        return read(parameters, node == null ? Parameters.empty() : Parameters.of(node), key, reader);
    }

    /** Each mapping of the list under {@code key} (none when absent), read by {@code reader}. */
    public static <T> List<T> list(Parameters parameters, String key, Function<Parameters, T> reader) {
        JsonNode node = parameters.node(key);
        List<T> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            throw new PluginConfigException("parameter '" + key + "' must be a list, got " + node);
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            String where = key + "[" + i + "]";
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
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        if (!node.isObject()) {
            throw new PluginConfigException("parameter '" + key + "' must be a mapping of strings, got " + node);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new PluginConfigException("parameter '" + key + "." + e.getKey() + "' must be a string, got "
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
