package dev.homing.router.precise.events;

import java.nio.charset.StandardCharsets;
import org.zeromq.ZMQ;

/**
 * One live KV-event message: vLLM sends exactly three frames, {@code [topic, sequence, payload]}, the sequence as 8
 * bytes big-endian. Anything else is malformed (as in llm-d's subscriber, a longer sequence frame is read by its
 * first 8 bytes).
 *
 * @param topic   null when the message is malformed
 * @param payload null when the message is malformed
 */
record KvMessage(String topic, long seq, byte[] payload) {

    /** Frames beyond this are read and dropped, so a sender cannot make us hold a message of any size in pieces. */
    private static final int MAX_FRAMES = 16;

    static final KvMessage MALFORMED = new KvMessage(null, -1, null);

    boolean malformed() {
        return payload == null;
    }

    /** The next message, {@link #MALFORMED}, or null when none arrived within the socket's receive timeout. */
    static KvMessage receive(ZMQ.Socket socket) {
        return receive(socket, 0);
    }

    /**
     * The next message, {@link #MALFORMED}, or null when none arrived ({@code ZMQ.DONTWAIT}: none was waiting).
     * The frames after the first are there already: ZMQ delivers a message whole.
     */
    static KvMessage receive(ZMQ.Socket socket, int flags) {
        byte[] first = socket.recv(flags);
        if (first == null) {
            return null;
        }
        byte[][] frames = new byte[3][];
        frames[0] = first;
        int n = 1;
        while (socket.hasReceiveMore()) {
            byte[] f = socket.recv(0);
            if (n < 3) {
                frames[n] = f;
            }
            if (++n > MAX_FRAMES) {
                while (socket.hasReceiveMore()) {
                    socket.recv(0);
                }
            }
        }
        if (n != 3 || frames[1] == null || frames[1].length < 8 || frames[2] == null) {
            return MALFORMED;
        }
        return new KvMessage(new String(first, StandardCharsets.UTF_8), sequence(frames[1]), frames[2]);
    }

    /** The first 8 bytes, big-endian. */
    static long sequence(byte[] frame) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (frame[i] & 0xffL);
        }
        return v;
    }

    static byte[] sequenceBytes(long seq) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (seq >>> (56 - 8 * i));
        }
        return b;
    }
}
