package dev.homing.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.core.plugins.BuiltIns;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BuiltInConfigTest {

    @ParameterizedTest
    @EnumSource(BuiltInConfig.class)
    void everyBuiltInResolves(BuiltInConfig builtIn) {
        ResolvedConfig r = builtIn.resolve(BuiltIns.registry(), ConfigResolverTest.CTX);
        assertThat(r.profiles()).isNotEmpty();
        assertThat(r.config().source()).isEqualTo(builtIn.resource());
        assertThat(r.warnings()).allSatisfy(w -> assertThat(w).startsWith(builtIn.resource() + ":")
                .matches("[^:]+:[1-9][0-9]*: .+"));
    }

    /**
     * Only the precise built-in asks for tokens while placing a request (its producer calls the token source): a
     * data plane moves just its decisions off the I/O threads, as a tokenizer call may wait on the network.
     */
    @ParameterizedTest
    @EnumSource(BuiltInConfig.class)
    void onlyThePreciseBuiltInUsesTokens(BuiltInConfig builtIn) {
        ResolvedConfig r = builtIn.resolve(BuiltIns.registry(), ConfigResolverTest.CTX);
        assertThat(r.pluginsOf(dev.homing.core.framework.request.UsesTokens.class).isEmpty())
                .isEqualTo(builtIn != BuiltInConfig.PRECISE);
    }

    /**
     * "llm-d's P/D config, unchanged": the shipped file is, byte for byte, the copy of llm-d's
     * {@code deploy/config/pd-epp-config.yaml} tested beside the other 12 (its repository and commit are in that folder's
     * README), and it resolves as llm-d resolves it.
     */
    @Test
    void thePdBuiltInIsLlmdsPdConfigUnchanged() throws Exception {
        byte[] upstream;
        byte[] shipped;
        try (InputStream u = BuiltInConfigTest.class.getResourceAsStream("/configs/llm-d/upstream/pd-epp-config.yaml");
             InputStream b = BuiltInConfig.class.getResourceAsStream(BuiltInConfig.PD.resource())) {
            upstream = u.readAllBytes();
            shipped = b.readAllBytes();
        }
        assertThat(shipped).isEqualTo(upstream);
        assertThat(DefaultConfig.pdText()).isEqualTo(BuiltInConfig.PD.text())
                .isEqualTo(new String(upstream, StandardCharsets.UTF_8));

        ResolvedConfig r = BuiltInConfig.PD.resolve(BuiltIns.registry(), ConfigResolverTest.CTX);
        assertThat(r.profileHandler()).isEqualTo("disagg-profile-handler");
        assertThat(r.profiles()).extracting(ResolvedConfig.Profile::name).containsExactly("prefill", "decode");
        assertThat(r.profiles()).extracting(ResolvedConfig.Profile::filters)
                .containsExactly(List.of("prefill-filter"), List.of("decode-filter"));
        assertThat(r.profiles()).allSatisfy(p -> {
            assertThat(p.picker()).isEqualTo("max-score-picker");
            assertThat(p.scorers()).containsExactly(
                    new ResolvedConfig.Weighted("prefix-cache-scorer", "prefix-cache-scorer", 2),
                    new ResolvedConfig.Weighted("queue-scorer", "queue-scorer", 1));
        });
        assertThat(r.plugins()).containsKeys("disagg-headers-handler", "prefix-based-pd-decider");
        // the index parameters written on the scorer move to the approximate producer they imply, as in llm-d
        assertThat(r.autoAdded()).containsExactly("approx-prefix-cache-producer", "utilization-detector");
        JsonNode index = r.specs().get("approx-prefix-cache-producer").parameters();
        assertThat(index.path("maxPrefixBlocksToMatch").asInt()).isEqualTo(256);
        assertThat(index.path("lruCapacityPerServer").asInt()).isEqualTo(31250);
        assertThat(r.specs().get("prefix-based-pd-decider").parameters().path("nonCachedTokens").asInt()).isEqualTo(16);
        assertThat(r.warnings()).containsExactly("homing-pd.yaml:2: apiVersion inference.networking.x-k8s.io/v1alpha1 "
                + "is deprecated; use llm-d.ai/v1alpha1");
    }
}
