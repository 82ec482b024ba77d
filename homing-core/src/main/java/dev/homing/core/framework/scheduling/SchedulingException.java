package dev.homing.core.framework.scheduling;

/**
 * The request is not placed: the scheduler could not place it, or admission refused it. {@link #status()} is the HTTP
 * status to answer with, {@link #droppedReason()} llm-d's {@code x-llm-d-request-dropped-reason} for it.
 */
public final class SchedulingException extends Exception {

    /** llm-d's reasons a request is dropped, as its {@code x-llm-d-request-dropped-reason} header says them. */
    public static final String SATURATED = "rejected-saturated";
    public static final String NO_ENDPOINTS = "rejected-no-endpoints";
    public static final String TTL_EXPIRED = "rejected-ttl-expired";
    public static final String CONTEXT_CANCELLED = "rejected-context-cancelled";
    public static final String EVICTED = "evicted";

    private final int status;
    private final String droppedReason;

    public SchedulingException(int status, String message) {
        this(status, message, status == 429 ? SATURATED : NO_ENDPOINTS);
    }

    public SchedulingException(int status, String message, String droppedReason) {
        super(message, null, false, false);
        this.status = status;
        this.droppedReason = droppedReason;
    }

    /** Admission refused it: the pool is saturated and the request may wait no longer, or not at all (429). */
    public static SchedulingException saturated(String why) {
        return new SchedulingException(429, why, SATURATED);
    }

    /**
     * An admitter refused it. llm-d's director answers any admitter's refusal the same way, whatever the admitter
     * said: Internal, {@code "request cannot be admitted"}, which its ext_proc server turns into a 500, with no
     * dropped-reason header ({@code pkg/epp/requestcontrol/director.go}, {@code HandleRequest}, in
     * llm-d/llm-d-inference-scheduler at 0a4fd844 and llm-d/llm-d-router at 45c38549). {@code why} follows, for the
     * reader of Homing's error.
     */
    public static SchedulingException notAdmitted(String why) {
        return new SchedulingException(500, "request cannot be admitted: " + why, null);
    }

    /** No endpoint exists (503). */
    public static SchedulingException noEndpoints(String why) {
        return new SchedulingException(503, why);
    }

    /** Endpoints exist but every one was filtered out or refused (429, as llm-d answers). */
    public static SchedulingException exhausted(String why) {
        return new SchedulingException(429, why);
    }

    public int status() {
        return status;
    }

    public String droppedReason() {
        return droppedReason;
    }
}
