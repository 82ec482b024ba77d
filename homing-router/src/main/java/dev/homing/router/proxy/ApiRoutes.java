package dev.homing.router.proxy;

import dev.homing.protocol.openai.ApiKind;

/**
 * The API port's routes. {@code POST} to each OpenAI API the router reads ({@link ApiKind}: completions, chat
 * completions, responses, conversations, embeddings, also under a provider's prefix); any method to every other
 * model-server path ({@link ApiKind#PASSTHROUGH}: forwarded by model, routed on load); the models the pool serves and
 * a health check, answered here. Anything else gets an OpenAI-shaped 404, and an API path with the wrong method 405,
 * as vLLM answers.
 */
final class ApiRoutes {

    /** What a request is: where it goes, and for a forwarded one, which API it was sent to. */
    record Route(Kind kind, ApiKind api) {
        static final Route HEALTH = new Route(Kind.HEALTH, null);
        static final Route MODELS = new Route(Kind.MODELS, null);
        static final Route NOT_FOUND = new Route(Kind.NOT_FOUND, null);
        static final Route METHOD_NOT_ALLOWED = new Route(Kind.METHOD_NOT_ALLOWED, null);
    }

    enum Kind { FORWARD, MODELS, HEALTH, NOT_FOUND, METHOD_NOT_ALLOWED }

    private ApiRoutes() {
    }

    /** @param path the request's path, without its query */
    static Route route(String method, String path) {
        boolean get = "GET".equals(method);
        if (get && "/v1/models".equals(path)) {
            return Route.MODELS;
        }
        if (get && "/health".equals(path)) {
            return Route.HEALTH;
        }
        ApiKind kind = ApiKind.forPath(path);
        if (kind == ApiKind.PASSTHROUGH || (kind != null && "POST".equals(method))) {
            return new Route(Kind.FORWARD, kind);
        }
        return kind != null ? Route.METHOD_NOT_ALLOWED : Route.NOT_FOUND;
    }

    /**
     * The path as a server reading it would take it: percent-encoded octets decoded and dot segments removed (RFC 3986
     * §2.3, §5.2.4), so that a request is judged by the path the pod will act on ({@code /v1/%75nload_lora_adapter}
     * is {@code /v1/unload_lora_adapter}, {@code /v1/../metrics} is {@code /metrics}); null when the encoding is
     * broken. The common path, plain ASCII with no {@code %} and no dot segment, is returned as it is.
     */
    static String normalize(String path) {
        if (path.indexOf('%') < 0 && !path.contains("/.")) {
            return path;
        }
        String decoded;
        try {
            decoded = java.net.URLDecoder.decode(path.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        java.util.ArrayDeque<String> out = new java.util.ArrayDeque<>();
        String[] segments = decoded.split("/", -1);
        for (int i = 1; i < segments.length; i++) {
            String seg = segments[i];
            if (seg.equals(".")) {
                if (i == segments.length - 1) {
                    out.addLast("");
                }
            } else if (seg.equals("..")) {
                out.pollLast();
                if (i == segments.length - 1) {
                    out.addLast("");
                }
            } else {
                out.addLast(seg);
            }
        }
        return "/" + String.join("/", out);
    }

    /** The path of a request target: origin form up to its query; the path of an absolute form. */
    static String path(String uri) {
        int start = 0;
        if (!uri.startsWith("/")) {
            int scheme = uri.indexOf("://");
            int slash = scheme < 0 ? -1 : uri.indexOf('/', scheme + 3);
            if (slash < 0) {
                return "/";
            }
            start = slash;
        }
        int q = uri.indexOf('?', start);
        return q < 0 ? (start == 0 ? uri : uri.substring(start)) : uri.substring(start, q);
    }
}
