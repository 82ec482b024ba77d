package dev.homing.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/** Converts positioned config values to Jackson trees, which plugin {@code Parameters} read. */
final class ConfigNodes {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ConfigNodes() {
    }

    static JsonNode toJson(ConfigNode node) {
        if (node == null) {
            return F.nullNode();
        }
        return switch (node) {
            case ConfigNode.Mapping m -> {
                ObjectNode o = F.objectNode();
                m.entries().forEach((k, e) -> o.set(k, toJson(e.value())));
                yield o;
            }
            case ConfigNode.Sequence s -> {
                ArrayNode a = F.arrayNode();
                s.items().forEach(i -> a.add(toJson(i)));
                yield a;
            }
            case ConfigNode.Scalar s -> scalar(s.value());
        };
    }

    private static JsonNode scalar(Object v) {
        return switch (v) {
            case null -> F.nullNode();
            case String s -> F.textNode(s);
            case Boolean b -> F.booleanNode(b);
            case Integer i -> F.numberNode(i);
            case Long l -> F.numberNode(l);
            case BigInteger b -> F.numberNode(b);
            case Double d -> F.numberNode(d);
            case BigDecimal d -> F.numberNode(d);
            case Number n -> F.numberNode(n.doubleValue());
            default -> F.textNode(v.toString());
        };
    }
}
