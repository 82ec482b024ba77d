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

    /**
     * Headers only the router may set. A client's copies are dropped before forwarding, as llm-d drops them:
     * otherwise a client could point a P/D sidecar at any host.
     */
    public static final Set<String> ROUTER_OWNED = Set.of(PREFILLER_HOST_PORT, ENCODER_HOSTS_PORTS,
            DATA_PARALLEL_HOST_PORT, DESTINATION_ENDPOINT, DESTINATION_ENDPOINT_SERVED, DESTINATION_ENDPOINT_SUBSET);

    private GatewayHeaders() {
    }

    /** Whether {@code header} (any case) is one only the router may set. */
    public static boolean routerOwned(String header) {
        return ROUTER_OWNED.contains(header.toLowerCase(Locale.ROOT));
    }
}
