package dev.homing.cli.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rendered manifests as fabric8's typed Kubernetes objects. fabric8 keeps a field its model does not know in the
 * object's {@code additionalProperties} instead of failing, so {@link #unknownFields} walks the objects for any: a
 * misspelt or misplaced field is what the API server would refuse (strict field validation) or drop.
 */
record Manifests(String source, List<HasMetadata> objects) {

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static Manifests parse(String source, String yaml) {
        Object parsed = SERIALIZATION.unmarshal(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
        List<HasMetadata> objects = new ArrayList<>();
        if (parsed instanceof List<?> list) {
            list.forEach(o -> objects.add((HasMetadata) o));
        } else {
            objects.add((HasMetadata) parsed);
        }
        return new Manifests(source, List.copyOf(objects));
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        List<T> found = all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).toList();
        if (found.size() != 1) {
            throw new AssertionError(source + ": " + found.size() + " " + type.getSimpleName() + " named " + name
                    + " (objects: " + names() + ")");
        }
        return found.get(0);
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
    }

    /** The custom resources that no fabric8 model claims, by kind. */
    List<GenericKubernetesResource> generic(String kind) {
        return all(GenericKubernetesResource.class).stream().filter(g -> g.getKind().equals(kind)).toList();
    }

    List<String> names() {
        return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
    }

    /** Every field fabric8's model did not know, with its path, in every typed object. */
    List<String> unknownFields() {
        List<String> out = new ArrayList<>();
        for (HasMetadata o : objects) {
            if (!(o instanceof GenericKubernetesResource)) {
                walk(o, o.getKind() + "/" + o.getMetadata().getName(), out);
            }
        }
        return out;
    }

    private static void walk(Object o, String path, List<String> out) {
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>) {
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> walk(v, path + "." + k, out));
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object x : c) {
                walk(x, path + "[" + i++ + "]", out);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
                    || !m.getDeclaringClass().getName().startsWith("io.fabric8.kubernetes.api.model")
                    || !(m.getName().startsWith("get") || m.getName().startsWith("is"))) {
                continue;
            }
            Object value;
            try {
                value = m.invoke(o);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue; // a computed accessor that does not apply here; the model's fields are plain getters
            }
            if (m.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    out.add(path + ": unknown " + extra.keySet());
                }
                continue;
            }
            String field = m.getName().startsWith("is") ? m.getName().substring(2) : m.getName().substring(3);
            walk(value, path + "." + Character.toLowerCase(field.charAt(0)) + field.substring(1), out);
        }
    }
}
