package dev.homing.cli.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A custom resource checked against its CRD's structural schema, as the API server checks it on create with strict
 * field validation: types, unknown fields, required fields, enums, bounds, lengths, patterns, item and property counts.
 * The CEL rules ({@code x-kubernetes-validations}) are not evaluated: what they check is asserted by the tests.
 */
final class CrdSchema {

    private final String group;
    private final String kind;
    private final String version;
    private final JSONSchemaProps schema;

    private CrdSchema(String group, String kind, String version, JSONSchemaProps schema) {
        this.group = group;
        this.kind = kind;
        this.version = version;
        this.schema = schema;
    }

    static CrdSchema of(CustomResourceDefinition crd, String version) {
        CustomResourceDefinitionVersion v = crd.getSpec().getVersions().stream()
                .filter(x -> x.getName().equals(version)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(crd.getMetadata().getName() + " has no " + version));
        return new CrdSchema(crd.getSpec().getGroup(), crd.getSpec().getNames().getKind(), version,
                v.getSchema().getOpenAPIV3Schema());
    }

    String apiVersion() {
        return group + "/" + version;
    }

    String kind() {
        return kind;
    }

    /** What is wrong with {@code object} (the whole resource, as JSON), each with its path; empty when nothing. */
    List<String> violations(JsonNode object) {
        List<String> out = new ArrayList<>();
        check(schema, object, "", out);
        if (!apiVersion().equals(object.path("apiVersion").asText())) {
            out.add(".apiVersion: " + object.path("apiVersion").asText() + ", not " + apiVersion());
        }
        if (!kind.equals(object.path("kind").asText())) {
            out.add(".kind: " + object.path("kind").asText() + ", not " + kind);
        }
        return out;
    }

    private static void check(JSONSchemaProps s, JsonNode v, String path, List<String> out) {
        String at = path.isEmpty() ? "." : path;
        // Compared as JSON text: the CRD's enum values come from fabric8's own mapper, the object from another.
        if (s.getEnum() != null && !s.getEnum().isEmpty()
                && s.getEnum().stream().noneMatch(e -> String.valueOf(e).equals(v.toString()))) {
            out.add(at + ": " + v + " is none of " + s.getEnum());
        }
        String type = s.getType();
        if (type == null) {
            return;
        }
        switch (type) {
            case "object" -> object(s, v, path, at, out);
            case "array" -> array(s, v, path, at, out);
            case "string" -> string(s, v, at, out);
            case "integer" -> {
                if (!v.isIntegralNumber()) {
                    out.add(at + ": " + v + " is not an integer");
                } else {
                    bounds(s, v.asDouble(), at, out);
                }
            }
            case "number" -> {
                if (!v.isNumber()) {
                    out.add(at + ": " + v + " is not a number");
                } else {
                    bounds(s, v.asDouble(), at, out);
                }
            }
            case "boolean" -> {
                if (!v.isBoolean()) {
                    out.add(at + ": " + v + " is not a boolean");
                }
            }
            default -> out.add(at + ": the schema's type " + type + " is not known to this check");
        }
    }

    private static void object(JSONSchemaProps s, JsonNode v, String path, String at, List<String> out) {
        if (!v.isObject()) {
            out.add(at + ": " + v.getNodeType() + ", not an object");
            return;
        }
        for (String r : s.getRequired() == null ? List.<String>of() : s.getRequired()) {
            if (!v.has(r)) {
                out.add(at + ": " + r + " is required");
            }
        }
        if (s.getMinProperties() != null && v.size() < s.getMinProperties()) {
            out.add(at + ": " + v.size() + " properties, fewer than " + s.getMinProperties());
        }
        if (s.getMaxProperties() != null && v.size() > s.getMaxProperties()) {
            out.add(at + ": " + v.size() + " properties, more than " + s.getMaxProperties());
        }
        Map<String, JSONSchemaProps> props = s.getProperties();
        boolean hasProps = props != null && !props.isEmpty();
        JSONSchemaProps additional = s.getAdditionalProperties() == null ? null : s.getAdditionalProperties().getSchema();
        boolean preserve = Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields());
        if (!hasProps && additional == null) {
            return; // metadata and other open objects: checked by the API server's own types, not this schema
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JSONSchemaProps child = hasProps ? props.get(f.getKey()) : null;
            if (child == null) {
                child = additional;
            }
            if (child == null) {
                if (!preserve) {
                    out.add(path + "." + f.getKey() + ": unknown field");
                }
                continue;
            }
            check(child, f.getValue(), path + "." + f.getKey(), out);
        }
    }

    private static void array(JSONSchemaProps s, JsonNode v, String path, String at, List<String> out) {
        if (!v.isArray()) {
            out.add(at + ": " + v.getNodeType() + ", not an array");
            return;
        }
        if (s.getMinItems() != null && v.size() < s.getMinItems()) {
            out.add(at + ": " + v.size() + " items, fewer than " + s.getMinItems());
        }
        if (s.getMaxItems() != null && v.size() > s.getMaxItems()) {
            out.add(at + ": " + v.size() + " items, more than " + s.getMaxItems());
        }
        JSONSchemaProps items = s.getItems() == null ? null : s.getItems().getSchema();
        if (items != null) {
            for (int i = 0; i < v.size(); i++) {
                check(items, v.get(i), path + "[" + i + "]", out);
            }
        }
    }

    private static void string(JSONSchemaProps s, JsonNode v, String at, List<String> out) {
        if (!v.isTextual()) {
            out.add(at + ": " + v + " is not a string");
            return;
        }
        String text = v.asText();
        if (s.getMinLength() != null && text.length() < s.getMinLength()) {
            out.add(at + ": '" + text + "' is shorter than " + s.getMinLength());
        }
        if (s.getMaxLength() != null && text.length() > s.getMaxLength()) {
            out.add(at + ": '" + text + "' is longer than " + s.getMaxLength());
        }
        if (s.getPattern() != null && !Pattern.compile(s.getPattern()).matcher(text).find()) {
            out.add(at + ": '" + text + "' does not match " + s.getPattern());
        }
    }

    private static void bounds(JSONSchemaProps s, double x, String at, List<String> out) {
        if (s.getMinimum() != null && x < s.getMinimum()) {
            out.add(at + ": " + x + " is below " + s.getMinimum());
        }
        if (s.getMaximum() != null && x > s.getMaximum()) {
            out.add(at + ": " + x + " is above " + s.getMaximum());
        }
    }
}
