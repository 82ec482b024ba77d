package dev.homing.core.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML (or JSON) value with the line and column it was written at, so that every configuration error can name
 * where it is. Mappings keep their keys in file order.
 */
public sealed interface ConfigNode {

    int line();

    int column();

    /** A mapping; each entry remembers the line of its key. */
    record Mapping(Map<String, Entry> entries, int line, int column) implements ConfigNode {
        public Mapping {
            entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        public ConfigNode get(String key) {
            Entry e = entries.get(key);
            return e == null ? null : e.value();
        }

        public boolean has(String key) {
            return entries.containsKey(key);
        }
    }

    /** One key of a mapping and its value. */
    record Entry(String key, int keyLine, ConfigNode value) {
    }

    record Sequence(List<ConfigNode> items, int line, int column) implements ConfigNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** A string, number, boolean or null (YAML's {@code ~}/{@code null}/empty value). */
    record Scalar(Object value, int line, int column) implements ConfigNode {
        public boolean isNull() {
            return value == null;
        }

        public String text() {
            return value == null ? null : value.toString();
        }
    }

    /** What kind of value this is, in the words of an error message. */
    default String kind() {
        return switch (this) {
            case Mapping m -> "a mapping";
            case Sequence s -> "a list";
            case Scalar s when s.value() == null -> "null";
            case Scalar s when s.value() instanceof String -> "a string";
            case Scalar s when s.value() instanceof Boolean -> "a boolean";
            case Scalar s -> "a number";
        };
    }
}
