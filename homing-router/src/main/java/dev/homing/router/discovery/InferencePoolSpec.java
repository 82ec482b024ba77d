package dev.homing.router.discovery;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Homing reads of an InferencePool ({@code inference.networking.k8s.io/v1}, GIE's
 * {@code api/v1/inferencepool_types.go}): {@code spec.selector.matchLabels}, the pods (in the pool's namespace);
 * {@code spec.targetPorts[].number}, 1 to 8 ports, each ready pod's IP at each port a separate endpoint; and
 * {@code spec.appProtocol}, {@code http} (the default) or {@code kubernetes.io/h2c}. The rest
 * ({@code endpointPickerRef}, {@code status}) is the gateway's.
 */
record InferencePoolSpec(LabelSelector selector, List<Integer> targetPorts, String appProtocol) {

    static final String HTTP = "http";
    /** gRPC model servers: Homing parses OpenAI's HTTP API only. */
    static final String H2C = "kubernetes.io/h2c";

    /** @throws IllegalArgumentException saying what of the spec cannot be used */
    static InferencePoolSpec of(GenericKubernetesResource pool) {
        Object spec = pool.getAdditionalProperties().get("spec");
        if (!(spec instanceof Map<?, ?> s)) {
            throw new IllegalArgumentException("it has no spec");
        }
        Map<String, String> matchLabels = new LinkedHashMap<>();
        if (!(s.get("selector") instanceof Map<?, ?> selector)
                || !(selector.get("matchLabels") instanceof Map<?, ?> labels) || labels.isEmpty()) {
            throw new IllegalArgumentException("spec.selector.matchLabels is missing or empty");
        }
        labels.forEach((k, v) -> matchLabels.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        List<Integer> ports = new ArrayList<>();
        if (!(s.get("targetPorts") instanceof List<?> list) || list.isEmpty()) {
            throw new IllegalArgumentException("spec.targetPorts is missing or empty");
        }
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> port) || !(port.get("number") instanceof Number n)
                    || n.intValue() < 1 || n.intValue() > 65535) {
                throw new IllegalArgumentException("spec.targetPorts: " + item + " has no port number from 1 to "
                        + "65535");
            }
            if (!ports.contains(n.intValue())) {
                ports.add(n.intValue());
            }
        }
        if (ports.size() > KubernetesPool.MAX_TARGET_PORTS) {
            throw new IllegalArgumentException("spec.targetPorts lists " + ports.size() + " ports, at most "
                    + KubernetesPool.MAX_TARGET_PORTS);
        }
        Object protocol = s.get("appProtocol");
        return new InferencePoolSpec(LabelSelector.matchLabels(matchLabels), ports,
                protocol == null ? HTTP : String.valueOf(protocol));
    }

    /** Whether Homing can place this pool's requests: llm-d's readiness fails when no parser speaks the protocol. */
    boolean spokenByHoming() {
        return appProtocol.equals(HTTP);
    }
}
