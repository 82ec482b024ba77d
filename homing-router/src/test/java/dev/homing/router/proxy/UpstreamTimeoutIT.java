package dev.homing.router.proxy;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.fixtures.TestCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A pod that accepted a request but answers too late: the client hears 504, and no other pod is asked to redo it. */
class UpstreamTimeoutIT {

    @Test
    void aResponseTimeoutIsA504AndNotARetry() {
        try (TestCluster c = TestCluster.start(2, pod -> pod, o -> o.with(x -> x.responseTimeout = Duration.ofMillis(300)))) {
            // Non-streaming: the pod sends its headers only when all 4,000 tokens are out, seconds from now.
            HttpResponse<String> res = c.http().post(c.url("/v1/completions"), "{\"model\":\"" + TestCluster.MODEL
                    + "\",\"prompt\":\"Write a long story\",\"max_tokens\":4000,\"ignore_eos\":true}");
            assertThat(res.statusCode()).isEqualTo(504);
            assertThat(json(res).path("error").path("type").asText()).isEqualTo("GatewayTimeoutError");
            // released together as the dispatch closes, in-flight first
            await().atMost(Duration.ofSeconds(10)).until(() -> c.routerInFlight() == 0 && c.routerPendingPrefill() == 0);
            int podsAsked = 0;
            for (int i = 0; i < 2; i++) {
                double prompt = c.http().metrics(c.podUrl(i, "/metrics")).sum(VllmMetrics.REQUEST_PROMPT_TOKENS + "_count");
                podsAsked += prompt > 0 ? 1 : 0;
            }
            assertThat(podsAsked).as("pods that started the request").isLessThanOrEqualTo(1);
            assertThat(c.http().metrics(c.adminUrl("/metrics")).sum("homing_upstream_retries_total")).isZero();
        }
    }
}
