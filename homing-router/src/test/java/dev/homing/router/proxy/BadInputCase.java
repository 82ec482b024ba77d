package dev.homing.router.proxy;

import java.util.List;
import java.util.Map;

/**
 * One case of the bad-input corpus ({@code bad-input/corpus.yaml}): the bytes a client writes, how it writes them, and
 * what the router must answer.
 *
 * @param why    the rule that says what the answer must be (shown when the case fails)
 * @param pieces the bytes in the order they are written
 */
record BadInputCase(String name, String why, List<Piece> pieces, Client client, Expected expected) {

    /** What the client does once it has written its pieces. */
    enum Client {
        /** Waits for the answer; its request was whole, so the connection may serve another. */
        WRITE,
        /** Says nothing more: its request is unfinished, so the connection can serve no other. */
        STOP,
        /** Shuts its side of the connection (a FIN) and waits for what the router does. */
        HALF_CLOSE
    }

    /** Bytes written at once, or one byte at a time ({@code slowly}, a slowloris client). */
    record Piece(byte[] bytes, boolean slowly) {
    }

    /** Whether the router must close the connection after its answer. */
    enum Close { YES, NO, ANY }

    /**
     * @param status    the first response's status; null for none (the connection closed without a byte)
     * @param type      the error's {@code type}; null for any non-blank one
     * @param param     the error's {@code param}; null when it must be null
     * @param forwarded whether a pod answered (the router's {@code x-homing-pod} header says so)
     * @param headers   response headers that must be there, names lower-cased, with these values (case ignored)
     */
    record Expected(Integer status, String type, String param, Close close, boolean forwarded,
                    Map<String, String> headers) {

        boolean error() {
            return status != null && status >= 400;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
