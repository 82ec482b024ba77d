package dev.homing.protocol.hashing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The small subset of canonical CBOR (RFC 8949 §4.2.1, as Python's {@code cbor2.dumps(obj, canonical=True)} writes it)
 * that vLLM's {@code sha256_cbor} block hash feeds: integers, byte strings, text strings, definite-length arrays
 * (Python tuples and lists) and {@code None}. Every head uses the shortest form, which is what makes the bytes canonical.
 *
 * <p>Reusable: {@link #reset()} keeps the buffer, so hashing a long prompt allocates nothing per block. Not thread-safe.
 */
public final class CanonicalCbor {

    private static final int MAJOR_UNSIGNED = 0;
    private static final int MAJOR_NEGATIVE = 1;
    private static final int MAJOR_BYTES = 2;
    private static final int MAJOR_TEXT = 3;
    private static final int MAJOR_ARRAY = 4;
    private static final int NULL = 0xf6;

    private byte[] buf;
    private int size;

    public CanonicalCbor() {
        this(128);
    }

    public CanonicalCbor(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public CanonicalCbor reset() {
        size = 0;
        return this;
    }

    public CanonicalCbor writeInt(long value) {
        if (value >= 0) {
            head(MAJOR_UNSIGNED, value);
        } else {
            head(MAJOR_NEGATIVE, -1 - value); // CBOR stores -1-n for negatives, so Long.MIN_VALUE still fits
        }
        return this;
    }

    public CanonicalCbor writeBytes(byte[] value) {
        head(MAJOR_BYTES, value.length);
        raw(value, 0, value.length);
        return this;
    }

    public CanonicalCbor writeText(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        head(MAJOR_TEXT, utf8.length);
        raw(utf8, 0, utf8.length);
        return this;
    }

    /** Starts a definite-length array; the caller writes exactly {@code length} items next. */
    public CanonicalCbor startArray(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative array length " + length);
        }
        head(MAJOR_ARRAY, length);
        return this;
    }

    public CanonicalCbor writeNull() {
        ensure(1);
        buf[size++] = (byte) NULL;
        return this;
    }

    /**
     * Writes a value of a supported type: {@code null}, {@link Integer}, {@link Long}, {@code byte[]}, {@link String},
     * {@link BlockHash} (as its 32-byte digest), or a {@link List} of those (an array).
     */
    public CanonicalCbor writeValue(Object value) {
        switch (value) {
            case null -> writeNull();
            case Integer i -> writeInt(i);
            case Long l -> writeInt(l);
            case byte[] b -> writeBytes(b);
            case String s -> writeText(s);
            case BlockHash h -> writeBytes(h.bytesUnsafe());
            case List<?> list -> {
                startArray(list.size());
                for (Object item : list) {
                    writeValue(item);
                }
            }
            default -> throw new IllegalArgumentException("not encodable as CBOR here: " + value.getClass().getName());
        }
        return this;
    }

    public int size() {
        return size;
    }

    /** The internal buffer; valid up to {@link #size()} until the next write. */
    byte[] buffer() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    private void head(int major, long argument) {
        int type = major << 5;
        if (argument >= 0 && argument < 24) {
            ensure(1);
            buf[size++] = (byte) (type | (int) argument);
        } else if (argument >= 0 && argument <= 0xffL) {
            ensure(2);
            buf[size++] = (byte) (type | 24);
            buf[size++] = (byte) argument;
        } else if (argument >= 0 && argument <= 0xffffL) {
            ensure(3);
            buf[size++] = (byte) (type | 25);
            putBigEndian(argument, 2);
        } else if (argument >= 0 && argument <= 0xffff_ffffL) {
            ensure(5);
            buf[size++] = (byte) (type | 26);
            putBigEndian(argument, 4);
        } else {
            // An unsigned 64-bit argument; Java's negative longs here stand for values >= 2^63.
            ensure(9);
            buf[size++] = (byte) (type | 27);
            putBigEndian(argument, 8);
        }
    }

    private void putBigEndian(long value, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (value >>> shift);
        }
    }

    private void raw(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, buf, size, len);
        size += len;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }
}
