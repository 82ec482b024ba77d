package dev.homing.router.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.objective.ModelRewrite;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import dev.homing.core.objective.RewriteRule;
import dev.homing.core.objective.RewriteTarget;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.router.scrape.EndpointCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The model a request is sent as, and the body that says so, as the intake decides them for both data planes. */
class ModelRewritingTest {

    private static final String BODY = "{\"model\":\"food-review\",\"prompt\":\"Hello\",\"max_tokens\":5}";

    private final List<RewriteDecision> decisions = new ArrayList<>();

    private RequestIntake intake(Objectives objectives) {
        return new RequestIntake(new EndpointCatalog(), 1 << 20, () -> objectives, new SplittableRandom(7),
                decisions::add);
    }

    private static Objectives rule(String rewrite, List<String> models, RewriteTarget... targets) {
        return Objectives.of(List.of(), List.of(new ModelRewrite(rewrite, List.of(
                new RewriteRule(models, List.of(targets))))));
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void theHeaderNamesTheTargetWhenNoRuleMatches() {
        RequestIntake.Result r = intake(Objectives.NONE).parse(ApiKind.COMPLETIONS,
                BODY.getBytes(StandardCharsets.UTF_8), Map.of("X-Gateway-Model-Name-Rewrite", "food-review-v3"));
        assertThat(r.request().model()).isEqualTo("food-review");
        assertThat(r.request().targetModel()).isEqualTo("food-review-v3");
        assertThat(text(r.body())).isEqualTo(BODY.replace("\"food-review\"", "\"food-review-v3\""));
        assertThat(decisions).isEmpty(); // llm-d counts rule decisions only
    }

    @Test
    void aMatchingRuleDecidesOverTheHeaderAndIsCounted() {
        RequestIntake.Result r = intake(rule("canary", List.of("food-review"), new RewriteTarget("fr-canary", 1)))
                .parse(ApiKind.COMPLETIONS, BODY.getBytes(StandardCharsets.UTF_8),
                        Map.of("x-gateway-model-name-rewrite", "food-review-v3"));
        assertThat(r.request().targetModel()).isEqualTo("fr-canary");
        assertThat(text(r.body())).contains("\"model\":\"fr-canary\"").contains("\"prompt\":\"Hello\"");
        assertThat(decisions).containsExactly(new RewriteDecision("canary", "food-review", "fr-canary"));
    }

    @Test
    void aRuleThatKeepsTheModelIsCountedAndLeavesTheBodyAlone() {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        RequestIntake.Result r = intake(rule("keep", List.of(), new RewriteTarget("food-review", 1)))
                .parse(ApiKind.COMPLETIONS, body, Map.of());
        assertThat(r.body()).isSameAs(body);
        assertThat(r.request().targetModel()).isEqualTo("food-review");
        assertThat(decisions).containsExactly(new RewriteDecision("keep", "food-review", "food-review"));
    }

    @Test
    void noRuleNoHeaderTheRequestGoesAsSent() {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        RequestIntake.Result r = intake(rule("other", List.of("other-model"), new RewriteTarget("x", 1)))
                .parse(ApiKind.COMPLETIONS, body, Map.of());
        assertThat(r.body()).isSameAs(body);
        assertThat(r.request().targetModel()).isEqualTo("food-review");
        assertThat(decisions).isEmpty();
    }

    @Test
    void aFormCannotBeRewrittenAndGoesToTheModelItNames() {
        byte[] form = "--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper\r\n--b--\r\n"
                .getBytes(StandardCharsets.UTF_8);
        RequestIntake.Result r = intake(Objectives.NONE).parse(ApiKind.PASSTHROUGH, form,
                Map.of("content-type", "multipart/form-data; boundary=b", "x-gateway-model-name-rewrite", "w2"));
        assertThat(r.request().targetModel()).isEqualTo("whisper");
        assertThat(r.body()).isSameAs(form);
    }
}
