package dev.homing.router.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A rewritten request's response given back the model name the client asked for: {@code "model":"<target>"} becomes
 * {@code "model":"<asked>"}, in both spacings llm-d looks for ({@code "model": "<target>"} too; llm-d/llm-d-router
 * {@code pkg/epp/handlers/server.go} at 04ddff9a, {@code rewriteModelName}), by byte search, so a JSON body and every
 * event of a stream are rewritten without being parsed. llm-d replaces the spaced form only in a chunk without the
 * compact one; both are replaced here, which gives the same bytes for any body that uses one spacing.
 *
 * <p>Chunks are rewritten as they pass, and a pattern may straddle two of them (llm-d rewrites each chunk alone and
 * misses it then): the tail of a chunk that could begin one is held back until the next chunk says, or the end. A
 * held tail is at most a pattern's length less one, and never ends an SSE event (an event ends in a blank line,
 * which begins no pattern), so no event is delayed. One instance per response, on one thread at a time.
 */
public final class ResponseModelRewrite {

    private static final byte[] NONE = new byte[0];

    private final byte[][] from;
    private final byte[][] to;
    private byte[] held = NONE;

    private ResponseModelRewrite(String target, String asked) {
        from = new byte[][] {pattern("\"model\":\"", target), pattern("\"model\": \"", target)};
        to = new byte[][] {pattern("\"model\":\"", asked), pattern("\"model\": \"", asked)};
    }

    /** The rewrite for a request asking for {@code asked} and sent as {@code target}; null when they are the same. */
    public static ResponseModelRewrite of(String target, String asked) {
        if (target == null || asked == null || target.isEmpty() || asked.isEmpty() || target.equals(asked)) {
            return null;
        }
        return new ResponseModelRewrite(target, asked);
    }

    private static byte[] pattern(String head, String model) {
        return (head + model + "\"").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The bytes to pass on for the next chunk: null when they are the chunk's own, unchanged (nothing held before,
     * nothing replaced, nothing held back), else a new array (possibly empty, when all of it is held back).
     */
    public byte[] chunk(byte[] bytes, int off, int len) {
        byte[] in;
        int start;
        int end;
        if (held.length == 0) {
            in = bytes;
            start = off;
            end = off + len;
        } else {
            in = new byte[held.length + len];
            System.arraycopy(held, 0, in, 0, held.length);
            System.arraycopy(bytes, off, in, held.length, len);
            start = 0;
            end = in.length;
        }
        boolean joined = held.length > 0;
        ByteArrayOutputStream out = null;
        int copied = start; // bytes before this are in out (when out exists)
        int i = start;
        while (i < end) {
            int p = matchAt(in, i, end);
            if (p < 0) {
                i++;
                continue;
            }
            if (out == null) {
                out = new ByteArrayOutputStream(end - start + 16);
            }
            out.write(in, copied, i - copied);
            out.write(to[p], 0, to[p].length);
            i += from[p].length;
            copied = i;
        }
        int keep = heldBackFrom(in, Math.max(copied, end - maxLength() + 1), end);
        held = keep == end ? NONE : java.util.Arrays.copyOfRange(in, keep, end);
        if (out == null && !joined && keep == end) {
            return null;
        }
        if (out == null) {
            out = new ByteArrayOutputStream(keep - copied);
        }
        out.write(in, copied, keep - copied);
        return out.toByteArray();
    }

    /** What is still held back, at the response's end: passed on as it is (it was no whole pattern). */
    public byte[] end() {
        byte[] rest = held;
        held = NONE;
        return rest;
    }

    /** A whole body at once. */
    public byte[] whole(byte[] body) {
        byte[] a = chunk(body, 0, body.length);
        byte[] b = end();
        if (a == null && b.length == 0) {
            return body;
        }
        a = a == null ? body : a;
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private int maxLength() {
        return Math.max(from[0].length, from[1].length);
    }

    /** Which pattern starts at {@code i} whole, or -1. */
    private int matchAt(byte[] in, int i, int end) {
        if (in[i] != '"') {
            return -1;
        }
        for (int p = 0; p < from.length; p++) {
            if (regionEquals(in, i, end, from[p], from[p].length)) {
                return p;
            }
        }
        return -1;
    }

    /** The first index from which the rest of {@code in} could begin a pattern (a proper prefix of one); else end. */
    private int heldBackFrom(byte[] in, int from0, int end) {
        for (int i = Math.max(from0, 0); i < end; i++) {
            if (in[i] != '"') {
                continue;
            }
            int n = end - i;
            for (byte[] f : from) {
                if (n < f.length && regionEquals(in, i, end, f, n)) {
                    return i;
                }
            }
        }
        return end;
    }

    private static boolean regionEquals(byte[] in, int i, int end, byte[] pattern, int n) {
        if (end - i < n) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (in[i + k] != pattern[k]) {
                return false;
            }
        }
        return true;
    }
}
