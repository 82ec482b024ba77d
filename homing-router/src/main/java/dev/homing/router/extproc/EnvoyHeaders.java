package dev.homing.router.extproc;

import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Envoy's header maps as the router reads and writes them: lower-case names, values in {@code raw_value}. */
final class EnvoyHeaders {

    private EnvoyHeaders() {
    }

    /**
     * The headers by lower-case name, pseudo-headers ({@code :path}, {@code :status}) included. A value is read from
     * {@code raw_value} (what Envoy sends) or, from older clients, {@code value}; repeated names are joined with commas,
     * as HTTP allows.
     */
    static Map<String, String> read(HeaderMap map) {
        Map<String, String> out = new HashMap<>(map.getHeadersCount() * 2);
        for (HeaderValue h : map.getHeadersList()) {
            String value = h.getRawValue().isEmpty() ? h.getValue() : h.getRawValue().toString(StandardCharsets.UTF_8);
            out.merge(h.getKey().toLowerCase(Locale.ROOT), value, (a, b) -> a + "," + b);
        }
        return out;
    }

    /** A header to set, replacing any value Envoy has: Envoy's default would append to a copy the client sent. */
    static HeaderValueOption set(String name, String value) {
        return HeaderValueOption.newBuilder()
                .setHeader(HeaderValue.newBuilder().setKey(name)
                        .setRawValue(com.google.protobuf.ByteString.copyFrom(value, StandardCharsets.UTF_8)))
                .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
                .build();
    }
}
