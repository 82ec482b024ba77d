package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import org.junit.jupiter.api.Test;

class RecentHeadersTest {

    private static ServerRequestHeaders request(int i) {
        WritableHeaders<?> h = WritableHeaders.create();
        h.add(HeaderNames.create("X-Prefiller-Host-Port"), "10.0.0." + i + ":8000");
        h.add(HeaderNames.create("x-twice"), "a");
        h.add(HeaderNames.create("x-twice"), "b");
        return ServerRequestHeaders.create(h);
    }

    @Test
    void keepsTheLastSixteenOldestFirstWithNamesLowerCased() {
        RecentHeaders recent = new RecentHeaders();
        assertThat(recent.snapshot()).isEmpty();
        for (int i = 0; i < 20; i++) {
            recent.record(request(i));
        }
        assertThat(recent.snapshot()).hasSize(RecentHeaders.CAPACITY);
        assertThat(recent.snapshot().getFirst()).containsEntry("x-prefiller-host-port", "10.0.0.4:8000");
        assertThat(recent.snapshot().getLast()).containsEntry("x-prefiller-host-port", "10.0.0.19:8000")
                .containsEntry("x-twice", "a,b");
    }
}
