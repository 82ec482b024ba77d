package dev.homing.protocol.openai;

/** A request body that is not a valid OpenAI request; carries the error to answer with. */
public final class RequestFormatException extends Exception {

    private final transient OpenAiError error;

    public RequestFormatException(OpenAiError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public static RequestFormatException badRequest(String message, String param) {
        return new RequestFormatException(OpenAiError.badRequest(message, param));
    }

    public OpenAiError error() {
        return error;
    }
}
