package dev.homing.sim.http;

import io.helidon.http.Header;
import io.helidon.http.ServerRequestHeaders;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The headers of the last few inference requests a pod received, newest last, so a test can see what a router
 * forwarded (a P/D router's {@code x-prefiller-host-port}, say). Bounded: the oldest is dropped past {@link #CAPACITY}.
 * Names are lower-cased; a header sent more than once keeps its values joined by commas, as HTTP allows.
 */
final class RecentHeaders {

    static final int CAPACITY = 16;

    private final ArrayDeque<Map<String, String>> recent = new ArrayDeque<>(CAPACITY);

    void record(ServerRequestHeaders headers) {
        Map<String, String> copy = new LinkedHashMap<>();
        for (Header h : headers) {
            copy.merge(h.name().toLowerCase(Locale.ROOT), String.join(",", h.allValues()), (a, b) -> a + "," + b);
        }
        Map<String, String> frozen = Collections.unmodifiableMap(copy);
        synchronized (recent) {
            if (recent.size() == CAPACITY) {
                recent.removeFirst();
            }
            recent.addLast(frozen);
        }
    }

    /** Oldest first; empty before the first request. */
    List<Map<String, String>> snapshot() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
