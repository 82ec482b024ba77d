package dev.homing.core.endpoint;

import java.util.Map;
import java.util.Objects;

/**
 * A model-server endpoint: one pod (or one port of a pod) that requests can be sent to.
 *
 * @param name   the pod's name, unique in the pool
 * @param host   where to reach it
 * @param port   its inference port
 * @param labels Kubernetes-style labels (roles such as {@code llm-d.ai/role}, LoRA or context-length hints)
 */
public record Endpoint(String name, String host, int port, Map<String, String> labels) {

    public Endpoint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        labels = Map.copyOf(labels);
    }

    public Endpoint(String name, String host, int port) {
        this(name, host, port, Map.of());
    }

    /** {@code host:port}, the form llm-d puts in {@code x-gateway-destination-endpoint}. */
    public String address() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }

    public String label(String key) {
        return labels.get(key);
    }
}
