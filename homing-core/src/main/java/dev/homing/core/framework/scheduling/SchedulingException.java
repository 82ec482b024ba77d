package dev.homing.core.framework.scheduling;

/** The scheduler could not place a request; {@link #status()} is the HTTP status to answer with. */
public final class SchedulingException extends Exception {

    private final int status;

    public SchedulingException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
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
}
