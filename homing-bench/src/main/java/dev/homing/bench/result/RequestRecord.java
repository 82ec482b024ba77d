package dev.homing.bench.result;

/**
 * What happened to one request.
 *
 * @param status       HTTP status, 200 when served; 0 when no response arrived
 * @param ttftNanos    arrival to first token, or -1
 * @param e2eNanos     arrival to last byte, or -1
 * @param cachedTokens prompt tokens the serving pod had cached (its {@code usage}), or -1 when unknown
 * @param pod          where it ran, or null when unknown
 */
public record RequestRecord(String id, int stage, long arrivalNanos, String pod, int status, long ttftNanos,
                            long e2eNanos, int promptTokens, int cachedTokens, int outputTokens) {

    public boolean ok() {
        return status == 200;
    }

    /** Mean time between output tokens after the first, or -1 with fewer than two tokens. */
    public double itlNanos() {
        return outputTokens < 2 || e2eNanos < 0 || ttftNanos < 0 ? -1 : (double) (e2eNanos - ttftNanos) / (outputTokens - 1);
    }
}
