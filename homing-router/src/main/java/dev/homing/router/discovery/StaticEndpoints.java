package dev.homing.router.discovery;

import dev.homing.core.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.List;

/** Endpoints named on the command line: {@code name=host:port,name=host:port} (a bare {@code host:port} names itself). */
public final class StaticEndpoints {

    private StaticEndpoints() {
    }

    public static List<Endpoint> parse(String spec) {
        List<Endpoint> out = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String item : spec.split(",")) {
            String s = item.strip();
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            String name = eq >= 0 ? s.substring(0, eq).strip() : s;
            String address = eq >= 0 ? s.substring(eq + 1).strip() : s;
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || colon == address.length() - 1) {
                throw new IllegalArgumentException("endpoint '" + s + "': expected name=host:port");
            }
            String host = address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("endpoint '" + s + "': port is not a number");
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("endpoint '" + s + "': empty name");
            }
            out.add(new Endpoint(name, host, port));
        }
        return out;
    }
}
