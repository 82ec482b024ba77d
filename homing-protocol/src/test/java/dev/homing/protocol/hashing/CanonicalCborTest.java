package dev.homing.protocol.hashing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CanonicalCborTest {

    private static String hex(CanonicalCbor cbor) {
        return HexFormat.of().formatHex(cbor.toByteArray());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "0, 00",
            "1, 01",
            "23, 17",
            "24, 1818",
            "255, 18ff",
            "256, 190100",
            "65535, 19ffff",
            "65536, 1a00010000",
            "151643, 1a0002505b",
            "4294967295, 1affffffff",
            "4294967296, 1b0000000100000000",
            "9223372036854775807, 1b7fffffffffffffff",
            "-1, 20",
            "-24, 37",
            "-25, 3818",
            "-256, 38ff",
            "-257, 390100",
            "-9223372036854775808, 3b7fffffffffffffff",
    })
    void integersUseTheShortestHead(long value, String expected) {
        assertThat(hex(new CanonicalCbor().writeInt(value))).isEqualTo(expected);
    }

    @Test
    void textIsMajorTypeThreeInUtf8() {
        assertThat(hex(new CanonicalCbor().writeText("42"))).isEqualTo("623432");
        assertThat(hex(new CanonicalCbor().writeText(""))).isEqualTo("60");
        assertThat(hex(new CanonicalCbor().writeText("é"))).isEqualTo("62c3a9");
        assertThat(hex(new CanonicalCbor().writeText("x".repeat(24)))).startsWith("7818");
    }

    @Test
    void bytesAreMajorTypeTwo() {
        byte[] digest = new byte[32];
        Arrays.fill(digest, (byte) 0xab);
        assertThat(hex(new CanonicalCbor().writeBytes(digest))).isEqualTo("5820" + "ab".repeat(32));
        assertThat(hex(new CanonicalCbor().writeBytes(new byte[0]))).isEqualTo("40");
    }

    @Test
    void arraysAndNone() {
        assertThat(hex(new CanonicalCbor().startArray(16))).isEqualTo("90");
        assertThat(hex(new CanonicalCbor().startArray(23))).isEqualTo("97");
        assertThat(hex(new CanonicalCbor().startArray(24))).isEqualTo("9818");
        assertThat(hex(new CanonicalCbor().writeNull())).isEqualTo("f6");
        assertThat(hex(new CanonicalCbor().writeValue(List.of("a", 1, List.of()))))
                .isEqualTo("83" + "6161" + "01" + "80");
    }

    @Test
    void resetReusesTheBufferAndGrows() {
        CanonicalCbor cbor = new CanonicalCbor(16);
        for (int i = 0; i < 100; i++) {
            cbor.writeInt(1_000_000);
        }
        assertThat(cbor.size()).isEqualTo(500);
        assertThat(hex(cbor.reset().writeInt(7))).isEqualTo("07");
    }

    @Test
    void unsupportedTypesAreRejected() {
        assertThatThrownBy(() -> new CanonicalCbor().writeValue(1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Double");
    }
}
