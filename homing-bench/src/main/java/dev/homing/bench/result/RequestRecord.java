package dev.homing.bench.result;

/**
 * What happened to one request.
 *
 * @param status       HTTP status, 200 when served; 0 when no response arrived
 * @param ttftNanos    arrival to first token, or -1
 * @param e2eNanos     arrival to last byte, or -1
 * @param cachedTokens prompt tokens the serving pod had cached (its {@code usage}), or -1 when unknown
 * @param pod          where it ran, or null when unknown
 * @param scheduledNanos arrival to the pod's scheduler first admitting it, or -1 when unknown: virtual runs know it; a
 *                     live run sees only the HTTP stream and leaves it -1
 * @param queueNanos   of that, the time in the scheduler's waiting queue (the rest is the engine's per-request
 *                     front-end overhead), or -1 when unknown
 */
public record RequestRecord(String id, int stage, long arrivalNanos, String pod, int status, long ttftNanos,
                            long e2eNanos, int promptTokens, int cachedTokens, int outputTokens, long scheduledNanos,
                            long queueNanos) {

    /** A record without a queue time (a live run's). */
    public RequestRecord(String id, int stage, long arrivalNanos, String pod, int status, long ttftNanos,
                         long e2eNanos, int promptTokens, int cachedTokens, int outputTokens) {
        this(id, stage, arrivalNanos, pod, status, ttftNanos, e2eNanos, promptTokens, cachedTokens, outputTokens, -1,
                -1);
    }

    public boolean ok() {
        return status == 200;
    }

    /** Mean time between output tokens after the first, or -1 with fewer than two tokens. */
    public double itlNanos() {
        return outputTokens < 2 || e2eNanos < 0 || ttftNanos < 0 ? -1 : (double) (e2eNanos - ttftNanos) / (outputTokens - 1);
    }

    /**
     * From the scheduler's first admission to the first token: the request's own prefill (its chunks and the steps
     * it shared with others), or -1 when the queue time or TTFT is unknown.
     */
    public long prefillNanos() {
        return scheduledNanos < 0 || ttftNanos < 0 ? -1 : ttftNanos - scheduledNanos;
    }

    /** Prompt tokens the pod computed (not served from its cache), or -1 when the cached count is unknown. */
    public int uncachedTokens() {
        return cachedTokens < 0 ? -1 : Math.max(0, promptTokens - cachedTokens);
    }
}
