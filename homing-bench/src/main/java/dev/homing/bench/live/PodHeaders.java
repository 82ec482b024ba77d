package dev.homing.bench.live;

import dev.homing.protocol.gateway.GatewayHeaders;
import java.net.http.HttpHeaders;
import java.util.List;

/**
 * Where a response says it ran: Homing's {@code x-homing-pod}, else the gateway's
 * {@code x-gateway-destination-endpoint} (llm-d, Homing), else the pod's own {@code x-inference-pod}
 * (llm-d-inference-sim, Homing's simulator).
 */
final class PodHeaders {

    static final List<String> NAMES = List.of("x-homing-pod", GatewayHeaders.DESTINATION_ENDPOINT, "x-inference-pod");

    private PodHeaders() {
    }

    /** The pod, or null when no header names one. */
    static String of(HttpHeaders headers) {
        for (String name : NAMES) {
            String v = headers.firstValue(name).map(String::trim).orElse("");
            if (!v.isEmpty()) {
                return v;
            }
        }
        return null;
    }
}
