package dev.homing.protocol.openai;

import java.util.Set;

/**
 * The APIs of an OpenAI-compatible model server a router distinguishes, chosen from the request path as llm-d's
 * {@code openai-parser} does (by suffix, so provider-specific prefixes such as {@code /v1/projects/p/chat/completions}
 * work). Four are routed on their prompt (prefix affinity and load); embeddings and every other model-server path on
 * load alone.
 */
public enum ApiKind {
    COMPLETIONS("/v1/completions", true, true),
    CHAT_COMPLETIONS("/v1/chat/completions", true, true),
    /** OpenAI's Responses API: routed on {@code instructions}, {@code tools} and {@code input}. */
    RESPONSES("/v1/responses", true, true),
    /** OpenAI's Conversations API (creating one with its {@code items}), which llm-d's parser knows. */
    CONVERSATIONS("/v1/conversations", true, false),
    /**
     * Prefill only and usually short: spread by load. Prefix affinity would pay little (pooling models are often
     * bidirectional, and vLLM caches no prefix for them) and would fill the prefix index with blocks no pod keeps.
     */
    EMBEDDINGS("/v1/embeddings", false, false),
    /**
     * Any other model-server path ({@code /v1/...}, vLLM's {@code /tokenize}, {@code /score}, {@code /rerank}, ...):
     * forwarded unchanged to a pod serving the body's {@code model} (any pod when it names none), chosen by load.
     */
    PASSTHROUGH(null, false, false);

    /** vLLM's own paths outside {@code /v1/} that serve a model, and so are worth forwarding to a pod. */
    private static final Set<String> VLLM_PATHS = Set.of("/tokenize", "/detokenize", "/pooling", "/classify", "/score",
            "/rerank", "/invocations", "/inference/v1/generate");
    /** Paths under {@code /v1/} that act on one pod, not on the pool: a router forwarding them would pick one at random. */
    private static final Set<String> PER_POD_PATHS = Set.of("/v1/load_lora_adapter", "/v1/unload_lora_adapter");

    private final String path;
    private final boolean prefixAffinity;
    private final boolean generates;

    ApiKind(String path, boolean prefixAffinity, boolean generates) {
        this.path = path;
        this.prefixAffinity = prefixAffinity;
        this.generates = generates;
    }

    /** The API's path as OpenAI names it; null for {@link #PASSTHROUGH}, which has none of its own. */
    public String path() {
        return path;
    }

    /** Whether requests of this kind are routed on their prompt's prefix as well as on load. */
    public boolean prefixAffinity() {
        return prefixAffinity;
    }

    /** Whether a request of this kind generates tokens (the router then expects output beyond its prompt). */
    public boolean generates() {
        return generates;
    }

    /**
     * The kind served at {@code path}, or null when a router should not forward it (the router's own paths such as
     * {@code /health}, a pod's operational ones such as {@code /metrics} or {@code /v1/load_lora_adapter}, and paths no
     * model server has). A query string and a trailing slash are ignored, so an Envoy {@code :path} can be passed as is.
     */
    public static ApiKind forPath(String path) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        String p = clean(path);
        if (p.endsWith("/chat/completions")) {
            return CHAT_COMPLETIONS;
        }
        if (p.endsWith("/completions")) {
            return COMPLETIONS;
        }
        if (p.endsWith("/responses")) {
            return RESPONSES;
        }
        if (p.endsWith("/conversations")) {
            return CONVERSATIONS;
        }
        if (p.endsWith("/embeddings")) {
            return EMBEDDINGS;
        }
        if (PER_POD_PATHS.contains(p)) {
            return null;
        }
        if (p.startsWith("/v1/") || p.startsWith("/v2/") || VLLM_PATHS.contains(p)) {
            return PASSTHROUGH;
        }
        return null;
    }

    /**
     * Whether a passthrough path generates nothing whatever its body says: vLLM's {@code /tokenize},
     * {@code /detokenize} and the {@code /render} of completions and chat take a generation request's body, its
     * {@code max_tokens} included, and only tokenize or render it, so no output should be expected of them.
     */
    public static boolean generatesNothing(String path) {
        if (path == null) {
            return false;
        }
        String p = clean(path);
        return p.equals("/tokenize") || p.equals("/detokenize") || p.endsWith("/render");
    }

    /**
     * The response a path under {@code /v1/responses/} names ({@code GET /v1/responses/{id}},
     * {@code POST /v1/responses/{id}/cancel}, ...), or null: such a request can only be answered by the pod that
     * stored that response.
     */
    public static String responseIdInPath(String path) {
        if (path == null) {
            return null;
        }
        String p = clean(path);
        int at = p.indexOf("/responses/");
        if (at < 0) {
            return null;
        }
        int start = at + "/responses/".length();
        int end = p.indexOf('/', start);
        String id = end < 0 ? p.substring(start) : p.substring(start, end);
        return id.isEmpty() ? null : id;
    }

    private static String clean(String path) {
        int q = path.indexOf('?');
        String p = q < 0 ? path : path.substring(0, q);
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
