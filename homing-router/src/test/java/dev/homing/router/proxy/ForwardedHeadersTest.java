package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ForwardedHeadersTest {

    @Test
    void aHopsOwnAndTheRoutersOwnStayWhilePluginsAddTheirs() {
        Map<String, String> client = new LinkedHashMap<>();
        client.put("authorization", "Bearer k");
        client.put("connection", "keep-alive");
        client.put("host", "router:8000");
        client.put("content-length", "999");
        client.put("transfer-encoding", "chunked");
        client.put(":path", "/v1/completions");
        client.put("x-prefiller-host-port", "10.0.0.9:8000"); // only the router may set it
        client.put("x-smuggled", "a\r\nx-evil: 1");
        client.put("x-homing-admin-token", "secret"); // never leaves the router
        HttpHeaders out = ForwardedHeaders.toPod(client, Map.of("X-Prefiller-Host-Port", "10.0.0.2:8000"),
                "10.0.0.1:8000", "Bearer pod-token", 42);
        assertThat(out.getAll("authorization")).containsExactly("Bearer pod-token");
        assertThat(out.contains("x-homing-admin-token")).isFalse();
        assertThat(out.get("host")).isEqualTo("10.0.0.1:8000");
        assertThat(out.get("content-length")).isEqualTo("42");
        assertThat(out.getAll("x-prefiller-host-port")).containsExactly("10.0.0.2:8000");
        assertThat(out.contains("connection")).isFalse();
        assertThat(out.contains("transfer-encoding")).isFalse();
        assertThat(out.contains(":path")).isFalse();
        assertThat(out.contains("x-smuggled")).isFalse();
    }

    @Test
    void withoutAnAuthorizationForThePodNoneIsSent() {
        HttpHeaders out = ForwardedHeaders.toPod(Map.of("authorization", "Bearer client"), Map.of(), "p:1", null, -1);
        assertThat(out.contains("authorization")).isFalse();
    }

    @Test
    void noBodyNoLength() {
        assertThat(ForwardedHeaders.toPod(Map.of(), Map.of(), "p:1", null, -1).contains("content-length")).isFalse();
    }

    @Test
    void theRoutersServerFramesTheResponseItself() {
        assertThat(ForwardedHeaders.returned("Content-Type")).isTrue();
        assertThat(ForwardedHeaders.returned("x-request-id")).isTrue();
        assertThat(ForwardedHeaders.returned("Transfer-Encoding")).isFalse();
        assertThat(ForwardedHeaders.returned("Content-Length")).isFalse();
        assertThat(ForwardedHeaders.returned("connection")).isFalse();
        assertThat(ForwardedHeaders.returned(":status")).isFalse();
    }
}
