package dev.homing.router.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** GIE's own InferenceModelRewrite examples, verbatim (see {@code crds/gie/README.md}), as its page describes them. */
class UpstreamRewriteExamplesTest {

    private static String read(String file) throws Exception {
        try (InputStream in = UpstreamRewriteExamplesTest.class.getResourceAsStream("/crds/gie/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void modelAliasingSendsEveryFoodReviewRequestAsFoodReviewV1() throws Exception {
        Objectives o = ObjectiveResources.parseFile("model-aliasing.yaml", read("model-aliasing.yaml"));
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 20; i++) {
            RewriteDecision d = o.rewrite("food-review", random);
            assertThat(d.rewriteName()).isEqualTo("food-review-alias");
            assertThat(d.target()).isEqualTo("food-review-v1");
        }
        assertThat(o.rewrite("other-model", random)).isNull();
    }

    @Test
    void theCanaryExamplesGroupIsNoneTheKindHasAndIsRefusedNamingItsLine() {
        assertThatThrownBy(() -> ObjectiveResources.parseFile("canary.yaml", read("canary.yaml")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("canary.yaml:1")
                .hasMessageContaining("inference.networking.k8s.io/v1alpha2")
                .hasMessageContaining("inference.networking.x-k8s.io/v1alpha2");
    }
}
