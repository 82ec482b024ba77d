package dev.homing.router.http;

/** Token counts an endpoint reported in a response's {@code usage}; -1 where it said nothing. */
public record Usage(long promptTokens, long completionTokens, long cachedTokens) {
    public static final Usage UNKNOWN = new Usage(-1, -1, -1);

    public boolean known() {
        return promptTokens >= 0;
    }
}
