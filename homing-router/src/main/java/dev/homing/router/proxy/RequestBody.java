package dev.homing.router.proxy;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A request body as it arrives, copied once from the socket's buffers into one array: of the declared length when the
 * client declared one (the parser and the forwarded request then share it), else grown to the limit. Bounded: a body
 * over the limit is refused before it is read whole.
 */
final class RequestBody {

    private final int limit;
    private byte[] bytes;
    private int length;

    /** @param declaredLength the request's Content-Length, or -1 for a chunked body; at most {@code limit} */
    RequestBody(long declaredLength, int limit) {
        this.limit = limit;
        this.bytes = new byte[declaredLength >= 0 ? (int) declaredLength : Math.min(8192, limit)];
    }

    /** Takes a piece of the body; false when the body grows over the limit (nothing more should be read). */
    boolean add(ByteBuf piece) {
        int n = piece.readableBytes();
        if ((long) length + n > bytes.length) {
            if ((long) length + n > limit) {
                return false;
            }
            bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max((long) length + n, 2L * bytes.length)));
        }
        piece.readBytes(bytes, length, n);
        length += n;
        return true;
    }

    byte[] bytes() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
}
