package dev.homing.router.extproc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.homing.protocol.gateway.GatewayHeaders;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import java.util.ArrayList;
import java.util.List;

/**
 * What a gateway says to the picker in a request's dynamic metadata (the endpoint-picker protocol): the subset of
 * endpoints it may pick from, and, with the response, the endpoint that served. And the picker's answer in the same
 * shape: {@code envoy.lb: {x-gateway-destination-endpoint: "ip:port,..."}}.
 */
final class EnvoyMetadata {

    private EnvoyMetadata() {
    }

    /**
     * The endpoints ({@code ip:port}, or {@code ip}) the gateway allows, from {@code envoy.lb.subset_hint}; null when it
     * sets no hint (any endpoint of the pool may be picked), empty when it allows none.
     */
    static List<String> subsetHint(Metadata metadata) {
        Struct ns = metadata.getFilterMetadataMap().get(GatewayHeaders.SUBSET_NAMESPACE);
        if (ns == null || !ns.containsFields(GatewayHeaders.DESTINATION_ENDPOINT_SUBSET)) {
            return null;
        }
        Value v = ns.getFieldsOrThrow(GatewayHeaders.DESTINATION_ENDPOINT_SUBSET);
        List<String> out = new ArrayList<>();
        switch (v.getKindCase()) {
            case LIST_VALUE -> {
                for (Value item : v.getListValue().getValuesList()) {
                    if (item.hasStringValue() && !item.getStringValue().isBlank()) {
                        out.add(item.getStringValue().strip());
                    }
                }
            }
            case STRING_VALUE -> { // tolerated: one comma-separated string
                for (String s : v.getStringValue().split(",")) {
                    if (!s.isBlank()) {
                        out.add(s.strip());
                    }
                }
            }
            default -> {
            }
        }
        return out;
    }

    /** The endpoint ({@code ip:port}) that served the request, from {@code envoy.lb}; null when not said. */
    static String served(Metadata metadata) {
        Struct ns = metadata.getFilterMetadataMap().get(GatewayHeaders.DESTINATION_NAMESPACE);
        if (ns == null) {
            return null;
        }
        Value v = ns.getFieldsMap().get(GatewayHeaders.DESTINATION_ENDPOINT_SERVED);
        return v != null && v.hasStringValue() && !v.getStringValue().isBlank() ? v.getStringValue().strip() : null;
    }

    /** The picker's answer as dynamic metadata: the same value as the destination header, so the two agree. */
    static Struct destination(String endpoints) {
        Struct inner = Struct.newBuilder()
                .putFields(GatewayHeaders.DESTINATION_ENDPOINT, Value.newBuilder().setStringValue(endpoints).build())
                .build();
        return Struct.newBuilder()
                .putFields(GatewayHeaders.DESTINATION_NAMESPACE, Value.newBuilder().setStructValue(inner).build())
                .build();
    }
}
