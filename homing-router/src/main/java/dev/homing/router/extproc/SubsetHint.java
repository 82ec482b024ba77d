package dev.homing.router.extproc;

import dev.homing.core.endpoint.EndpointState;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The endpoints a gateway lets the picker choose from. Matched by IP only, as llm-d matches: the hint names pod
 * addresses, and a pod's port may differ from the one the gateway knows it by.
 */
final class SubsetHint {

    private final Set<String> hosts = new HashSet<>();

    SubsetHint(List<String> entries) {
        for (String e : entries) {
            hosts.add(host(e));
        }
    }

    boolean isEmpty() {
        return hosts.isEmpty();
    }

    boolean allows(EndpointState e) {
        return hosts.contains(e.endpoint().host());
    }

    /** The host of {@code ip:port}, {@code [v6]:port}, a bare {@code ip} or a bare v6 address. */
    static String host(String entry) {
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            return close > 0 ? entry.substring(1, close) : entry;
        }
        int colon = entry.indexOf(':');
        return colon >= 0 && colon == entry.lastIndexOf(':') ? entry.substring(0, colon) : entry;
    }

    @Override
    public String toString() {
        return hosts.toString();
    }
}
