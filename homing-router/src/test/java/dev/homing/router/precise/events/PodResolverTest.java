package dev.homing.router.precise.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodResolverTest {

    private final Endpoint a = new Endpoint("pod-a", "10.0.0.7", 8000);
    private final Endpoint b = new Endpoint("pod-b", "10.0.0.8", 8000);
    private final Endpoint b2 = new Endpoint("pod-b2", "10.0.0.8", 8001);
    private final Endpoint v6 = new Endpoint("pod-v6", "fd00::1", 8000);
    private final PodResolver resolver = new PodResolver(List.of(a, b, b2, v6));

    @Test
    void topicsNameAPodByNameAddressOrUniqueHost() {
        assertThat(resolver.resolve("pod-a")).isEqualTo(a);
        assertThat(resolver.resolve("10.0.0.8:8001")).isEqualTo(b2);
        assertThat(resolver.resolve("10.0.0.7")).isEqualTo(a);
        assertThat(resolver.resolve("[fd00::1]:8000")).isEqualTo(v6);
        assertThat(resolver.resolve("fd00::1")).isEqualTo(v6);
        assertThat(resolver.resolve("[fd00::1]")).isEqualTo(v6);
    }

    @Test
    void aHostTwoEndpointsShareOrAnUnknownIdNamesNoOne() {
        assertThat(resolver.resolve("10.0.0.8")).isNull();
        assertThat(resolver.resolve("10.0.0.7:9999")).isNull();
        assertThat(resolver.resolve("ghost")).isNull();
        assertThat(resolver.resolve("")).isNull();
    }
}
