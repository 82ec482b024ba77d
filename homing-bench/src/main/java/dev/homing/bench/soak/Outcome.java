package dev.homing.bench.soak;

/**
 * What one request of the soak met, from the client's side.
 *
 * @param status the HTTP status, or 0 when no status line came
 * @param why    for anything but {@link Kind#OK}, what happened, in a few fixed words (they are counted by it)
 * @param nanos  from writing the request to the response's end or failure
 */
record Outcome(Kind kind, boolean stream, int status, String why, long nanos) {

    /** How a request ended. */
    enum Kind {
        /** A 2xx read to its end (a stream's to {@code data: [DONE]}). */
        OK,
        /** A status other than 2xx: the router answered, with an error. */
        ERROR,
        /** No status at all: refused, reset, closed or silent before the first byte of a response. */
        LOST,
        /** A 2xx that began and did not finish: a stream ended by an error event or broken, a body cut short. */
        CUT
    }

    static Outcome ok(boolean stream, int status, long nanos) {
        return new Outcome(Kind.OK, stream, status, "", nanos);
    }

    static Outcome error(boolean stream, int status, long nanos) {
        return new Outcome(Kind.ERROR, stream, status, "status " + status, nanos);
    }

    static Outcome lost(boolean stream, String why, long nanos) {
        return new Outcome(Kind.LOST, stream, 0, why, nanos);
    }

    static Outcome cut(boolean stream, int status, String why, long nanos) {
        return new Outcome(Kind.CUT, stream, status, why, nanos);
    }
}
