package dev.homing.core.plugins.scorer;

import static dev.homing.core.plugins.PluginFixtures.endpoint;
import static dev.homing.core.plugins.PluginFixtures.pool;
import static dev.homing.core.plugins.PluginFixtures.result;
import static dev.homing.core.plugins.PluginFixtures.scheduling;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.plugins.PluginFixtures;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionAffinityScorerTest {

    private final SessionAffinityScorer scorer = new SessionAffinityScorer(null);
    private final EndpointPool pool = pool(endpoint("pod-0", 1), endpoint("pod-1", 2, "homing.dev/namespace", "team"),
            endpoint("pod-2", 3));

    private double[] score(String token) {
        Map<String, String> headers = token == null ? Map.of() : Map.of("x-session-token", token);
        Cycle c = PluginFixtures.cycle(pool, Requests.completion("hi", headers));
        return scorer.score(c, pool.snapshot().endpoints());
    }

    @Test
    void theEndpointNamedByTheTokenScoresOne() {
        assertThat(score("ZGVmYXVsdC9wb2QtMA==")).containsExactly(1.0, 0.0, 0.0); // default/pod-0
        assertThat(score("dGVhbS9wb2QtMQ==")).containsExactly(0.0, 1.0, 0.0); // team/pod-1
    }

    @Test
    void theNamespaceComesFromTheLabelSoAnotherNamespaceDoesNotMatch() {
        assertThat(score("ZGVmYXVsdC9wb2QtMQ==")).containsExactly(0.0, 0.0, 0.0); // default/pod-1
    }

    @Test
    void aTokenWithoutNamespaceIsAccepted() {
        assertThat(score("cG9kLTI=")).containsExactly(0.0, 0.0, 1.0); // pod-2
    }

    @Test
    void noTokenOrOneThatDoesNotDecodeScoresZeroEverywhere() {
        assertThat(score(null)).containsExactly(0.0, 0.0, 0.0);
        assertThat(score("%%% not base64")).containsExactly(0.0, 0.0, 0.0);
        assertThat(score("")).containsExactly(0.0, 0.0, 0.0);
        assertThat(scorer.score(PluginFixtures.cycle(pool), List.of())).isEmpty();
    }

    @Test
    void theResponseCarriesTheTokenOfTheEndpointThatServedIt() {
        Map<String, String> extra = new HashMap<>();
        scorer.onHeaders(PluginFixtures.cycle(pool), scheduling("default", result("default", pool.snapshot().get("pod-1"))),
                200, extra);
        assertThat(extra).containsExactly(Map.entry("x-session-token", "dGVhbS9wb2QtMQ=="));
        assertThat(SessionAffinityScorer.token(pool.snapshot().get("pod-0").endpoint())).isEqualTo("ZGVmYXVsdC9wb2QtMA==");
    }
}
