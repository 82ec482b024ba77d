package dev.homing.protocol.kvevents;

/** A KV-event payload that cannot be read as vLLM's; the message names what was wrong and where. */
public final class KvEventFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public KvEventFormatException(String message) {
        super(message);
    }

    public KvEventFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
