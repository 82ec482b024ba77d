package dev.homing.router.discovery;

import java.util.regex.Pattern;

/**
 * Where an endpoint listens, as written: {@code host:port}, an IPv6 host in brackets ({@code [::1]:8000}). The host
 * is checked for its form only, never resolved: a DNS name, an IPv4 address or an IPv6 literal.
 *
 * @param host without brackets
 * @param port 1 to 65535
 */
record EndpointAddress(String host, int port) {

    private static final int MAX_NAME = 253;
    /** One label of a DNS name; '_' is let through, as resolvers (Docker's, for one) serve such names. */
    private static final Pattern DNS_LABEL = Pattern.compile("[A-Za-z0-9_]([-A-Za-z0-9_]{0,61}[A-Za-z0-9_])?");
    private static final Pattern OCTET = Pattern.compile("0|[1-9][0-9]{0,2}");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9A-Fa-f]{1,4}");

    /** @throws IllegalArgumentException saying what is wrong, without naming where it was written */
    static EndpointAddress parse(String address) {
        String host;
        String port;
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + address + "' opens '[' but does not close it; expected "
                        + "[IPv6]:port, e.g. [::1]:8000");
            }
            if (close + 1 >= address.length() || address.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("expected [IPv6]:port, e.g. [::1]:8000, got '" + address + "'");
            }
            host = address.substring(1, close);
            if (host.indexOf(':') < 0) {
                throw new IllegalArgumentException("brackets are for an IPv6 host, got '" + address + "'; write "
                        + host + ":PORT");
            }
            port = address.substring(close + 2);
        } else {
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || colon == address.length() - 1) {
                throw new IllegalArgumentException("expected host:port, got '" + address + "'");
            }
            host = address.substring(0, colon);
            port = address.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                throw new IllegalArgumentException("an IPv6 host goes in brackets, e.g. [::1]:8000, got '" + address
                        + "'");
            }
        }
        if (port.isEmpty() || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("port '" + port + "' is not a number");
        }
        if (port.length() > 5) {
            throw new IllegalArgumentException("port must be 1 to 65535, got " + port);
        }
        return of(host, Integer.parseInt(port));
    }

    /**
     * @param host as a file's {@code host:} gives it: an IPv6 literal without brackets
     * @throws IllegalArgumentException for a host that is no DNS name, IPv4 or IPv6 address, or a port out of range
     */
    static EndpointAddress of(String host, int port) {
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            throw new IllegalArgumentException("host '" + host + "' must be a name or address without spaces");
        }
        if (host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            throw new IllegalArgumentException("host '" + host + "' must be given without brackets (an IPv6 host "
                    + "is bracketed only in an address, e.g. [::1]:8000)");
        }
        if (!(host.indexOf(':') >= 0 ? isIpv6(host) : isDnsNameOrIpv4(host))) {
            throw new IllegalArgumentException("host '" + host + "' is neither a DNS name nor an IPv4 or IPv6 "
                    + "address");
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

    /** A DNS name of labels (a trailing dot allowed); one whose last label is a number must be an IPv4 address. */
    private static boolean isDnsNameOrIpv4(String host) {
        String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (name.isEmpty() || name.length() > MAX_NAME) {
            return false;
        }
        String[] labels = name.split("\\.", -1);
        if (labels[labels.length - 1].chars().allMatch(c -> c >= '0' && c <= '9')) {
            return !host.endsWith(".") && isIpv4(name);
        }
        for (String label : labels) {
            if (!DNS_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv4(String s) {
        String[] octets = s.split("\\.", -1);
        if (octets.length != 4) {
            return false;
        }
        for (String o : octets) {
            if (!OCTET.matcher(o).matches() || Integer.parseInt(o) > 255) {
                return false;
            }
        }
        return true;
    }

    /** RFC 4291's text forms: eight hex groups, one "::" for a run of zeros, the last 32 bits as IPv4 allowed. */
    private static boolean isIpv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return false;
        }
        String[] halves = gap >= 0 ? new String[] {s.substring(0, gap), s.substring(gap + 2)} : new String[] {s};
        int groups = 0;
        for (int h = 0; h < halves.length; h++) {
            if (halves[h].isEmpty()) {
                continue; // a side of "::"
            }
            String[] parts = halves[h].split(":", -1);
            for (int i = 0; i < parts.length; i++) {
                boolean last = h == halves.length - 1 && i == parts.length - 1;
                if (last && parts[i].indexOf('.') >= 0) {
                    if (!isIpv4(parts[i])) {
                        return false;
                    }
                    groups += 2;
                } else if (HEX_GROUP.matcher(parts[i]).matches()) {
                    groups++;
                } else {
                    return false;
                }
            }
        }
        return gap >= 0 ? groups <= 7 : groups == 8;
    }
}
