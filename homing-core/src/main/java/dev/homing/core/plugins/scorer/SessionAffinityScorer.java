package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * llm-d's {@code session-affinity-scorer}: keeps a session on the endpoint that served it. The response carries
 * {@code x-session-token: base64(namespace/name)} of the endpoint that served it; a request that sends the token back
 * scores 1.0 on that endpoint and 0 elsewhere (everywhere 0 without a token or with one that does not decode).
 *
 * <p>Homing's endpoints have a name and labels but no namespace: the namespace is the label
 * {@value #NAMESPACE_LABEL}, else {@value #DEFAULT_NAMESPACE}. A token of the bare name is accepted too, so tokens
 * minted by a router that knew no namespace keep working.
 */
public final class SessionAffinityScorer extends NamedPlugin implements Scorer, ResponseHooks {

    public static final String TYPE = "session-affinity-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new SessionAffinityScorer(name));
    public static final String HEADER = "x-session-token";
    public static final String NAMESPACE_LABEL = "homing.dev/namespace";
    public static final String DEFAULT_NAMESPACE = "default";

    public SessionAffinityScorer(String name) {
        super(TYPE, name);
    }

    /** {@code namespace/name} of an endpoint, as llm-d's NamespacedName prints it. */
    public static String namespacedName(Endpoint endpoint) {
        String ns = endpoint.label(NAMESPACE_LABEL);
        return (ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns) + "/" + endpoint.name();
    }

    /** The token that routes a session back to {@code endpoint}. */
    public static String token(Endpoint endpoint) {
        return Base64.getEncoder().encodeToString(namespacedName(endpoint).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        String session = decode(cycle.request().header(HEADER));
        if (session == null) {
            return scores;
        }
        for (int i = 0; i < scores.length; i++) {
            Endpoint e = candidates.get(i).endpoint();
            if (session.equals(namespacedName(e)) || session.equals(e.name())) {
                scores[i] = 1.0;
            }
        }
        return scores;
    }

    private static String decode(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(token.strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null; // llm-d logs and routes as if there were no session
        }
    }

    @Override
    public void onHeaders(Cycle cycle, SchedulingResult result, int status, Map<String, String> extraHeaders) {
        EndpointState target = result.target();
        if (target != null) {
            extraHeaders.put(HEADER, token(target.endpoint()));
        }
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.AFFINITY;
    }
}
