package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.Endpoint;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class StaticEndpointsTest {

    @Test
    void parsesNamedAndBareEndpoints() {
        assertThat(StaticEndpoints.parse("a=127.0.0.1:8001, 10.0.0.7:8000 ,b=[::1]:9")).containsExactly(
                new Endpoint("a", "127.0.0.1", 8001),
                new Endpoint("10.0.0.7:8000", "10.0.0.7", 8000),
                new Endpoint("b", "::1", 9));
        assertThat(new Endpoint("b", "::1", 9).address()).isEqualTo("[::1]:9");
        assertThat(StaticEndpoints.parse("10.0.0.7:08000,[::1]:9").stream().map(Endpoint::name))
                .as("a bare address is named as the endpoints file names it").containsExactly("10.0.0.7:8000", "[::1]:9");
    }

    @Test
    void aNameWithAControlCharacterIsRefused() {
        assertThatThrownBy(() -> StaticEndpoints.parse("a\u0001=h:1")).hasMessageContaining("control characters");
        assertThatThrownBy(() -> StaticEndpoints.parse("a\tb=h:1")).hasMessageContaining("control characters");
    }

    @Test
    void labelsFollowTheirEndpointAfterSemicolons() {
        assertThat(StaticEndpoints.parse("p=127.0.0.1:8001;llm-d.ai/role=prefill;zone=a,"
                + "d=127.0.0.1:8002; llm-d.ai/role = decode ;llm-d.ai/context-length-range=0-4096;,"
                + "10.0.0.9:8000;tier=;homing.dev/kv-events-endpoint=tcp://10.0.0.9:5557")).containsExactly(
                new Endpoint("p", "127.0.0.1", 8001, Map.of("llm-d.ai/role", "prefill", "zone", "a")),
                new Endpoint("d", "127.0.0.1", 8002, Map.of("llm-d.ai/role", "decode",
                        "llm-d.ai/context-length-range", "0-4096")),
                new Endpoint("10.0.0.9:8000", "10.0.0.9", 8000, Map.of("tier", "",
                        "homing.dev/kv-events-endpoint", "tcp://10.0.0.9:5557")));
    }

    @Test
    void badSpecsNameTheItem() {
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host")).hasMessageContaining("'a=host'")
                .hasMessageContaining("expected host:port");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host:x")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host:0")).hasMessageContaining("'a=host:0'")
                .hasMessageContaining("port must be 1 to 65535, got 0");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host:123456")).hasMessageContaining("got 123456");
        assertThatThrownBy(() -> StaticEndpoints.parse("=h:1")).hasMessageContaining("empty name");
        assertThatThrownBy(() -> StaticEndpoints.parse(" , ")).hasMessageContaining("no endpoint given");
        assertThatThrownBy(() -> StaticEndpoints.parse(null)).hasMessageContaining("no endpoint given");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a=h:1;llm-d.ai/role                | label 'llm-d.ai/role' has no value",
        "a=h:1;=decode                      | label '=decode': a label key must not be empty",
        "a=h:1;Llm-D.ai/role=decode         | label 'Llm-D.ai/role=decode': the prefix before '/' must be a DNS subdomain",
        "a=h:1;/role=decode                 | the prefix before '/' must not be empty",
        "a=h:1;llm-d.ai/=decode             | the name after '/' must not be empty",
        "a=h:1;a/b/c=decode                 | at most one '/'",
        "a=h:1;-role=decode                 | the name part must consist of alphanumeric characters",
        "a=h:1;role=pre fill                | label 'role=pre fill': a label value must be empty or consist of",
        "a=h:1;role=decode-                 | a label value must be empty or consist of",
        "a=h:1;role=a:b                     | a label value must be empty or consist of",
        "a=h:1;role=decode;role=prefill     | endpoint 'a=h:1;role=decode;role=prefill': label 'role' is given twice",
        "a=h:1;homing.dev/kv-events=tcp://x | Homing reads no such label; its labels are homing.dev/kv-events-endpoint",
        "a=h:1,a=h:2                        | endpoint 'a=h:2': the name 'a' is already endpoint 'a=h:1'",
        "a=h:1,b=h:1                        | endpoint 'b=h:1': the address h:1 is already endpoint 'a=h:1'",
        "a=::1:8000                         | endpoint 'a=::1:8000': an IPv6 host goes in brackets",
        "a=[::1:80                          | endpoint 'a=[::1:80': '[::1:80' opens '['",
        "a=b=h:1                            | endpoint 'a=b=h:1': host 'b=h' is neither a DNS name",
        "my pod=h:1                         | endpoint 'my pod=h:1': the name 'my pod' must have no spaces or control characters",
        "a=h:1;homing.dev/kv-events-endpoint=h:5557 | the value of homing.dev/kv-events-endpoint must be tcp://HOST:PORT",
    })
    void badLabelsAndDuplicatesNameTheItem(String spec, String message) {
        assertThatThrownBy(() -> StaticEndpoints.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void keysAndValuesMayBeAsLongAsKubernetesAllows() {
        String name = "n".repeat(63);
        String prefix = "p".repeat(253);
        assertThat(StaticEndpoints.parse("a=h:1;" + prefix + "/" + name + "=" + "v".repeat(63)).getFirst().labels())
                .containsEntry(prefix + "/" + name, "v".repeat(63));
        assertThatThrownBy(() -> StaticEndpoints.parse("a=h:1;" + name + "n=v"))
                .hasMessageContaining("the name part must be at most 63 characters");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=h:1;" + prefix + "p/n=v"))
                .hasMessageContaining("the prefix before '/' must be at most 253 characters");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=h:1;k=" + "v".repeat(64)))
                .hasMessageContaining("a label value must be at most 63 characters");
    }
}
