package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestBodyTest {

    @Test
    void aDeclaredBodyFillsOneArrayOfItsLength() {
        RequestBody b = new RequestBody(10, 100);
        assertThat(b.add(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII))).isTrue();
        assertThat(b.add(Unpooled.copiedBuffer("world", StandardCharsets.US_ASCII))).isTrue();
        assertThat(new String(b.bytes(), StandardCharsets.US_ASCII)).isEqualTo("helloworld");
    }

    @Test
    void aChunkedBodyGrowsUpToTheLimitAndNoFurther() {
        RequestBody b = new RequestBody(-1, 20_000);
        byte[] piece = new byte[7_000];
        piece[0] = 1;
        assertThat(b.add(Unpooled.wrappedBuffer(piece))).isTrue();
        assertThat(b.add(Unpooled.wrappedBuffer(piece))).isTrue();
        assertThat(b.bytes()).hasSize(14_000);
        assertThat(b.bytes()[7_000]).isEqualTo((byte) 1);
        assertThat(b.add(Unpooled.wrappedBuffer(piece))).isFalse(); // 21,000 > 20,000
    }

    @Test
    void anEmptyBodyIsEmpty() {
        assertThat(new RequestBody(-1, 100).bytes()).isEmpty();
        assertThat(new RequestBody(0, 100).bytes()).isEmpty();
    }
}
