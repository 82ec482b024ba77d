package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseWatchTest {

    private static boolean sse(String body) {
        return ResponseWatch.eventStream(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEventStreamIsToldByItsFirstBytes() {
        assertThat(sse("data: {\"x\":1}\n\n")).isTrue();
        assertThat(sse("\nevent: response.created\ndata: {}\n\n")).isTrue();
        assertThat(sse(": keep-alive\n\n")).isTrue();
        assertThat(sse("id: 7\ndata: x\n\n")).isTrue();
        assertThat(sse("{\"id\":\"resp_1\",\"object\":\"response\"}")).isFalse();
        assertThat(sse("  {\"usage\":{}}")).isFalse();
        assertThat(sse("")).isFalse();
        assertThat(sse("dat")).isFalse();
    }
}
