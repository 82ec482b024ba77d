package dev.homing.protocol.kvevents;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Test helper: byte strings written the way the wire-format notes write them. */
final class Bytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Bytes of() {
        return new Bytes();
    }

    /** Space-separated hex bytes, e.g. {@code "93 cb"}. */
    Bytes hex(String hex) {
        out.writeBytes(HexFormat.of().parseHex(hex.replace(" ", "")));
        return this;
    }

    /** A fixstr: length byte {@code 0xa0 | n} then the ASCII text. */
    Bytes fixstr(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(0xa0 | b.length);
        out.writeBytes(b);
        return this;
    }

    Bytes float64(double d) {
        long bits = Double.doubleToLongBits(d);
        out.write(0xcb);
        for (int i = 7; i >= 0; i--) {
            out.write((int) (bits >>> (8 * i)));
        }
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    static String hex(byte[] b) {
        return HexFormat.ofDelimiter(" ").formatHex(b);
    }
}
