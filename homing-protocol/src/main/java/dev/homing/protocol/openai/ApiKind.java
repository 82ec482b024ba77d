package dev.homing.protocol.openai;

/** The OpenAI-compatible APIs a router distinguishes, chosen by the path suffix as llm-d's parser does. */
public enum ApiKind {
    COMPLETIONS("/v1/completions"),
    CHAT_COMPLETIONS("/v1/chat/completions");

    private final String path;

    ApiKind(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }

    /** The kind served at {@code path}, or null when the path is not an inference API. */
    public static ApiKind forPath(String path) {
        if (path.endsWith("/chat/completions")) {
            return CHAT_COMPLETIONS;
        }
        if (path.endsWith("/completions")) {
            return COMPLETIONS;
        }
        return null;
    }
}
