package dev.homing.core.framework.requestcontrol;

/**
 * How a request ended, as llm-d's TerminationCause distinguishes it.
 *
 * @param status HTTP status the endpoint answered with, or 0 when none arrived
 */
public record Outcome(Cause cause, int status, long promptTokens, long completionTokens, long cachedTokens) {

    public enum Cause { NATURAL, CLIENT_DISCONNECT, ERROR, TIMEOUT }

    public static Outcome of(Cause cause, int status) {
        return new Outcome(cause, status, -1, -1, -1);
    }

    public boolean succeeded() {
        return cause == Cause.NATURAL && status >= 200 && status < 300;
    }
}
