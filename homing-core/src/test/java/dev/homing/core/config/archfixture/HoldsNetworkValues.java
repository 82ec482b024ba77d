package dev.homing.core.config.archfixture;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Keeps "no I/O in core": the values of java.net that touch no network (a URI, URL encoding, an unresolved address). */
public final class HoldsNetworkValues {

    URI endpoint(String host) throws URISyntaxException {
        return new URI("http", host, "/v1/completions", null).resolve(URI.create("models"));
    }

    String encoded(String value) {
        return URLDecoder.decode(URLEncoder.encode(value, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    String unresolved(String host, int port) {
        InetSocketAddress address = InetSocketAddress.createUnresolved(host, port);
        return address.isUnresolved() ? address.getHostString() + ":" + address.getPort() : address.toString();
    }
}
