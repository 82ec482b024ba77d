package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.Endpoint;
import org.junit.jupiter.api.Test;

class StaticEndpointsTest {

    @Test
    void parsesNamedAndBareEndpoints() {
        assertThat(StaticEndpoints.parse("a=127.0.0.1:8001, 10.0.0.7:8000 ,b=[::1]:9")).containsExactly(
                new Endpoint("a", "127.0.0.1", 8001),
                new Endpoint("10.0.0.7:8000", "10.0.0.7", 8000),
                new Endpoint("b", "::1", 9));
        assertThat(new Endpoint("b", "::1", 9).address()).isEqualTo("[::1]:9");
    }

    @Test
    void badSpecsNameTheItem() {
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host")).hasMessageContaining("'a=host'");
        assertThatThrownBy(() -> StaticEndpoints.parse("a=host:x")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> StaticEndpoints.parse("=h:1")).hasMessageContaining("empty name");
    }
}
