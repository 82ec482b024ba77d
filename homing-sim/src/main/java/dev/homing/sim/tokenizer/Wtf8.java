package dev.homing.sim.tokenizer;

/**
 * UTF-8 that also carries lone surrogates (WTF-8): a Java string may hold an unpaired surrogate, which plain UTF-8
 * would replace, and the tokenizer promises {@code decode(encode(s)) == s} for every string.
 */
final class Wtf8 {

    static final char REPLACEMENT = '\uFFFD';

    private Wtf8() {
    }

    /** Writes the bytes of one code point (a lone surrogate gets the 3-byte form) to {@code out}; returns the count. */
    static int encode(int cp, byte[] out) {
        if (cp < 0x80) {
            out[0] = (byte) cp;
            return 1;
        }
        if (cp < 0x800) {
            out[0] = (byte) (0xC0 | (cp >> 6));
            out[1] = (byte) (0x80 | (cp & 0x3F));
            return 2;
        }
        if (cp < 0x10000) {
            out[0] = (byte) (0xE0 | (cp >> 12));
            out[1] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[2] = (byte) (0x80 | (cp & 0x3F));
            return 3;
        }
        out[0] = (byte) (0xF0 | (cp >> 18));
        out[1] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[2] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[3] = (byte) (0x80 | (cp & 0x3F));
        return 4;
    }

    /**
     * Decodes {@code bytes[0, length)} into {@code out}. Invalid bytes become U+FFFD one by one. An incomplete sequence
     * at the end is left undecoded when {@code keepIncompleteTail} is set (a streaming caller waits for more bytes).
     *
     * @return how many bytes were consumed
     */
    static int decode(byte[] bytes, int length, StringBuilder out, boolean keepIncompleteTail) {
        int i = 0;
        while (i < length) {
            int b0 = bytes[i] & 0xFF;
            if (b0 < 0x80) {
                out.append((char) b0);
                i++;
                continue;
            }
            int need;
            int cp;
            int min;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
                cp = b0 & 0x1F;
                min = 0x80;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                cp = b0 & 0x0F;
                min = 0x800;
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                cp = b0 & 0x07;
                min = 0x10000;
            } else {
                out.append(REPLACEMENT);
                i++;
                continue;
            }
            int j = 1;
            while (j <= need && i + j < length && (bytes[i + j] & 0xC0) == 0x80) {
                cp = (cp << 6) | (bytes[i + j] & 0x3F);
                j++;
            }
            if (j <= need) {
                if (i + j == length && keepIncompleteTail) {
                    return i;
                }
                out.append(REPLACEMENT);
                i++;
                continue;
            }
            if (cp < min || cp > 0x10FFFF) {
                out.append(REPLACEMENT);
                i++;
                continue;
            }
            out.appendCodePoint(cp);
            i += j;
        }
        return i;
    }
}
