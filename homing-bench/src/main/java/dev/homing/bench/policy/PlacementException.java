package dev.homing.bench.policy;

/** A policy refused a request; the client sees {@link #status()}, as the router would answer. */
public final class PlacementException extends Exception {

    private final int status;

    public PlacementException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
