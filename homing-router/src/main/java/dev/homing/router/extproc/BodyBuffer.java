package dev.homing.router.extproc;

import com.google.protobuf.ByteString;
import java.util.Arrays;

/**
 * A request body gathered from the gateway's chunks until the end of stream, bounded: the picker parses the whole
 * body once, and re-emits it from this array without another copy. Sized from {@code content-length} when the client
 * sent one (up to 256 KiB at first), so a body usually lands in one array of its exact length.
 */
final class BodyBuffer {

    private final int limit;
    private byte[] bytes;
    private int size;

    /** What a declared length reserves at once: a client that declares much and sends little costs no more. */
    private static final int FIRST_ALLOCATION = 256 << 10;

    /** @param expected the body's declared length, or -1 */
    BodyBuffer(long expected, int limit) {
        this.limit = limit;
        this.bytes = new byte[(int) Math.max(0, Math.min(expected, Math.min(limit, FIRST_ALLOCATION)))];
    }

    /** Appends a chunk; false when the body would pass the limit (nothing is appended then). */
    boolean append(ByteString chunk) {
        int n = chunk.size();
        if (n > limit - size) {
            return false;
        }
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(size + (long) n, bytes.length * 2L)));
        }
        chunk.copyTo(bytes, size);
        size += n;
        return true;
    }

    int size() {
        return size;
    }

    /** The body, exactly its length (the array itself when it was sized right). */
    byte[] bytes() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }
}
