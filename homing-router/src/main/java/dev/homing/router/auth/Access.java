package dev.homing.router.auth;

/**
 * Who may use the router and what the pods are told of it. Every part is optional, and none is set by default:
 * with none, the router is as open as llm-d's (which leaves this to the gateway).
 *
 * @param apiKeys            bearer tokens the API port asks of clients ({@code 401} without one), or null for none
 * @param adminToken         the bearer token the admin port asks for (its health and readiness probes excepted), and
 *                           that makes a client trusted with {@code x-homing-explain}; or null for none
 * @param explainForAll      every client is trusted with {@code x-homing-explain} (pod names and scores): for a
 *                           router only its operators reach
 * @param stripAuthorization the client's {@code Authorization} stays at the router
 * @param podTokens          the tokens the pods ask for, sent in place of the client's; or null for none
 */
public record Access(ReloadingFile<BearerTokens> apiKeys, BearerTokens adminToken, boolean explainForAll,
                     boolean stripAuthorization, ReloadingFile<PodTokens> podTokens) {

    /** The header a client presents the admin token in to be told how its request was placed. */
    public static final String ADMIN_TOKEN_HEADER = "x-homing-admin-token";

    public static final Access OPEN = new Access(null, null, false, false, null);

    /** Whether a client with this {@code Authorization} may use the API; always, without API keys. */
    public boolean admits(String authorization) {
        return apiKeys == null || apiKeys.current().acceptsAuthorization(authorization);
    }

    /** Whether a client presenting this (or no) admin token is told how its request was placed. */
    public boolean explains(String presentedAdminToken) {
        return explainForAll || (adminToken != null && adminToken.accepts(presentedAdminToken));
    }

    /** Whether the admin port may be used with this {@code Authorization}; always, without an admin token. */
    public boolean admitsAdmin(String authorization) {
        return adminToken == null || adminToken.acceptsAuthorization(authorization);
    }

    /**
     * The {@code Authorization} to send to a pod: its token when one is set, else the client's unless it is stripped;
     * null for none.
     */
    public String authorizationFor(String pod, String client) {
        String token = podTokens == null ? null : podTokens.current().tokenFor(pod);
        if (token != null) {
            return "Bearer " + token;
        }
        return stripAuthorization ? null : client;
    }

    /** Looks at the followed files once. */
    public void poll() {
        if (apiKeys != null) {
            apiKeys.poll();
        }
        if (podTokens != null) {
            podTokens.poll();
        }
    }
}
