package dev.homing.router.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BodyReaderTest {

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void readsDeclaredAndChunkedBodiesExactly() throws IOException {
        byte[] body = bytes(20_000);
        assertThat(BodyReader.read(new ByteArrayInputStream(body), body.length, 1 << 20)).isEqualTo(body);
        assertThat(BodyReader.read(new ByteArrayInputStream(body), -1, 1 << 20)).isEqualTo(body);
        assertThat(BodyReader.read(new ByteArrayInputStream(new byte[0]), -1, 10)).isEmpty();
    }

    @Test
    void refusesBodiesOverTheLimit() throws IOException {
        assertThatThrownBy(() -> BodyReader.read(new ByteArrayInputStream(bytes(11)), 11, 10))
                .isInstanceOf(BodyReader.TooLargeException.class);
        assertThatThrownBy(() -> BodyReader.read(new ByteArrayInputStream(bytes(11)), -1, 10))
                .isInstanceOf(BodyReader.TooLargeException.class);
        assertThat(BodyReader.read(new ByteArrayInputStream(new byte[10]), -1, 10)).hasSize(10);
    }

    @Test
    void bodyShorterOrLongerThanDeclaredIsAnError() {
        assertThatThrownBy(() -> BodyReader.read(new ByteArrayInputStream(bytes(5)), 6, 10))
                .hasMessageContaining("shorter");
        assertThatThrownBy(() -> BodyReader.read(new ByteArrayInputStream(bytes(7)), 6, 10))
                .hasMessageContaining("longer");
    }
}
