package dev.homing.core.request;

import dev.homing.core.plugins.profile.DataParallelProfileHandler;
import dev.homing.core.plugins.profile.DisaggHeadersHandler;
import java.util.Locale;
import java.util.Set;

/**
 * Request headers only the router may set. A client's copies are dropped before forwarding, as llm-d drops them:
 * otherwise a client could point a P/D sidecar at any host.
 */
public final class RouterOwnedHeaders {

    public static final Set<String> NAMES = Set.of(
            DisaggHeadersHandler.PREFILL_HEADER,
            DisaggHeadersHandler.ENCODE_HEADER,
            DataParallelProfileHandler.HEADER,
            "x-gateway-destination-endpoint",
            "x-gateway-destination-endpoint-served",
            "x-gateway-destination-endpoint-subset");

    private RouterOwnedHeaders() {
    }

    public static boolean owned(String header) {
        return NAMES.contains(header.toLowerCase(Locale.ROOT));
    }
}
