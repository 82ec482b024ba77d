package dev.homing.protocol.gateway;

import java.util.Locale;
import java.util.Set;

/**
 * Headers the endpoint picker and what stands around it agree on, under llm-d's names: the gateway reads where to send
 * a request (and the router's own responses say where it went); the P/D sidecar on the decode pod reads where the
 * disaggregated stages run.
 */
public final class GatewayHeaders {

    /** Where the gateway sends the request: {@code host:port}, fallbacks after a comma. */
    public static final String DESTINATION_ENDPOINT = "x-gateway-destination-endpoint";
    public static final String DESTINATION_ENDPOINT_SERVED = "x-gateway-destination-endpoint-served";
    public static final String DESTINATION_ENDPOINT_SUBSET = "x-gateway-destination-endpoint-subset";
    /** Where the prefill runs, for the decode pod's sidecar: {@code host:port}. */
    public static final String PREFILLER_HOST_PORT = "x-prefiller-host-port";
    /** Where the encode stage runs: {@code host:port} of each encoder, comma-separated. */
    public static final String ENCODER_HOSTS_PORTS = "x-encoder-hosts-ports";
    /** Which data-parallel rank of the pod serves the request: {@code host:port}. */
    public static final String DATA_PARALLEL_HOST_PORT = "x-data-parallel-host-port";
    /** Why the picker refused a request ({@code rejected-saturated}, {@code rejected-no-endpoints}, ...). */
    public static final String REQUEST_DROPPED_REASON = "x-llm-d-request-dropped-reason";

    /**
     * Dynamic-metadata namespace of the picker's answer (Envoy's {@code envoy.lb}): the destination it chose, and,
     * from the gateway, the endpoint that served.
     */
    public static final String DESTINATION_NAMESPACE = "envoy.lb";
    /** Dynamic-metadata namespace in which a gateway names the subset of endpoints the picker may choose from. */
    public static final String SUBSET_NAMESPACE = "envoy.lb.subset_hint";

    /**
     * Headers only the router may set. A client's copies are dropped before forwarding, as llm-d drops them:
     * otherwise a client could point a P/D sidecar at any host.
     */
    public static final Set<String> ROUTER_OWNED = Set.of(PREFILLER_HOST_PORT, ENCODER_HOSTS_PORTS,
            DATA_PARALLEL_HOST_PORT, DESTINATION_ENDPOINT, DESTINATION_ENDPOINT_SERVED, DESTINATION_ENDPOINT_SUBSET,
            REQUEST_DROPPED_REASON);

    /**
     * Headers a client or gateway sends to steer the picker (llm-d's input control headers, old and new names): they
     * are for the picker and are not forwarded to the model server.
     */
    public static final Set<String> PICKER_CONTROL = Set.of("x-llm-d-inference-fairness-id",
            "x-gateway-inference-fairness-id", "x-llm-d-inference-ttl", "x-llm-d-inference-objective",
            "x-gateway-inference-objective", "x-llm-d-model-name-rewrite", "x-gateway-model-name-rewrite",
            "x-llm-d-slo-ttft-ms", "x-slo-ttft-ms", "x-llm-d-slo-tpot-ms", "x-slo-tpot-ms");

    private GatewayHeaders() {
    }

    /**
     * Whether {@code header} (any case) stops at the router: one only it may set, or one that steers it. Such headers
     * a client sent are never forwarded to a model server.
     */
    public static boolean stopsAtRouter(String header) {
        String h = header.toLowerCase(Locale.ROOT);
        return ROUTER_OWNED.contains(h) || PICKER_CONTROL.contains(h);
    }
}
