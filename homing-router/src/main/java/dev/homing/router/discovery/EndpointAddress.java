package dev.homing.router.discovery;

/**
 * Where an endpoint listens, as written: {@code host:port}, an IPv6 host in brackets ({@code [::1]:8000}).
 *
 * @param host without brackets
 * @param port 1 to 65535
 */
record EndpointAddress(String host, int port) {

    /** @throws IllegalArgumentException saying what is wrong, without naming where it was written */
    static EndpointAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + address + "'");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String port = address.substring(colon + 1);
        if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("port '" + port + "' is not a number");
        }
        if (port.length() > 5) {
            throw new IllegalArgumentException("port must be 1 to 65535, got " + port);
        }
        return of(host, Integer.parseInt(port));
    }

    /** @throws IllegalArgumentException for an empty host, one with spaces, or a port out of range */
    static EndpointAddress of(String host, int port) {
        if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("host '" + host + "' must be a name or address without spaces");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1 to 65535, got " + port);
        }
        return new EndpointAddress(host, port);
    }

    /** {@code host:port} as an endpoint's address reads, an IPv6 host in brackets: a bare address's name. */
    String text() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
