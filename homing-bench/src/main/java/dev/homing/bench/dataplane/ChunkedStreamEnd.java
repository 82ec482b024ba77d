package dev.homing.bench.dataplane;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a chunked HTTP response as it arrives and tells when it has ended: its terminating chunk came, and the data
 * before it ended with an SSE {@code data: [DONE]} event. Chunk boundaries carry no meaning (a proxy may split or join
 * a pod's chunks as it reads them), so the data is read across them, as any SSE client reads it.
 */
final class ChunkedStreamEnd {

    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.ISO_8859_1);

    private enum State { HEAD, SIZE, DATA, DATA_END, TRAILER, ENDED }

    private State state = State.HEAD;
    private int headMatched;
    private long size;
    private boolean extension;
    private final byte[] lastData = new byte[DONE.length];
    private boolean trailerLineEmpty = true;

    /** Takes the next bytes of the response; true once it has ended with {@code [DONE]}. */
    boolean accept(byte[] b, int off, int len) {
        for (int i = off; i < off + len && state != State.ENDED; i++) {
            byte c = b[i];
            switch (state) {
                case HEAD -> {
                    headMatched = c == (headMatched % 2 == 0 ? '\r' : '\n') ? headMatched + 1 : c == '\r' ? 1 : 0;
                    if (headMatched == 4) {
                        state = State.SIZE;
                    }
                }
                case SIZE -> {
                    if (c == '\n') {
                        state = size == 0 ? State.TRAILER : State.DATA;
                    } else if (c == ';') {
                        extension = true;
                    } else if (c != '\r' && !extension) {
                        size = size * 16 + Character.digit(c, 16);
                    }
                }
                case DATA -> {
                    System.arraycopy(lastData, 1, lastData, 0, lastData.length - 1);
                    lastData[lastData.length - 1] = c;
                    if (--size == 0) {
                        state = State.DATA_END;
                    }
                }
                case DATA_END -> {
                    if (c == '\n') {
                        state = State.SIZE;
                        size = 0;
                        extension = false;
                    }
                }
                case TRAILER -> {
                    if (c == '\n') {
                        if (trailerLineEmpty) {
                            state = State.ENDED;
                        }
                        trailerLineEmpty = true;
                    } else if (c != '\r') {
                        trailerLineEmpty = false;
                    }
                }
                default -> {
                }
            }
        }
        return state == State.ENDED && Arrays.equals(lastData, DONE);
    }
}
