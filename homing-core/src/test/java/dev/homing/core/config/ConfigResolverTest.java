package dev.homing.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ConfigResolverTest {

    static final PluginContext CTX = new PluginContext(new FakeTicker(), new SplittableRandom(1), Pools.of(2));

    static ResolvedConfig resolve(String yaml) throws ConfigException {
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(yaml, "test.yaml"), CTX);
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ConfigResolverTest.class.getResourceAsStream("/configs/llm-d/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void llmdHelmDefaultResolvesToThreeTwoTwoWithLlmdsDefaults() throws Exception {
        ResolvedConfig r = resolve(resource("helm-default.yaml"));
        assertThat(r.profiles()).hasSize(1);
        ResolvedConfig.Profile p = r.profiles().get(0);
        assertThat(p.name()).isEqualTo("default");
        assertThat(p.scorers()).containsExactly(
                new ResolvedConfig.Weighted("queue-scorer", "queue-scorer", 2),
                new ResolvedConfig.Weighted("kv-cache-utilization-scorer", "kv-cache-utilization-scorer", 2),
                new ResolvedConfig.Weighted("prefix-cache-scorer", "prefix-cache-scorer", 3));
        assertThat(p.picker()).isEqualTo("max-score-picker");
        assertThat(r.profileHandler()).isEqualTo("single-profile-handler");
        assertThat(r.autoAdded()).containsExactly("approx-prefix-cache-producer", "max-score-picker",
                "single-profile-handler", "utilization-detector");
        assertThat(r.saturationDetector()).isEqualTo("utilization-detector");
        assertThat(r.policy().producers()).singleElement().isInstanceOf(ApproxPrefixCacheProducer.class);
        assertThat(r.warnings()).anyMatch(w -> w.contains("deprecated"));
        assertThat(r.describe()).contains("scorers: queue-scorer x2, kv-cache-utilization-scorer x2, prefix-cache-scorer x3")
                .contains("picker:  max-score-picker (default)");
    }

    @Test
    void pdConfigsOfBothEraResolveToPrefillAndDecodeProfiles() throws Exception {
        for (String file : new String[] {"pd.yaml", "pd-legacy.yaml"}) {
            ResolvedConfig r = resolve(resource(file));
            assertThat(r.profileHandler()).as(file).isEqualTo("disagg-profile-handler");
            assertThat(r.profiles()).as(file).extracting(ResolvedConfig.Profile::name).containsExactly("prefill", "decode");
            ResolvedConfig.Profile prefill = r.profiles().get(0);
            assertThat(prefill.filters()).containsExactly("prefill-filter");
            assertThat(prefill.scorers()).extracting(ResolvedConfig.Weighted::name, ResolvedConfig.Weighted::weight)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 2.0),
                            org.assertj.core.groups.Tuple.tuple("queue-scorer", 1.0));
            assertThat(prefill.picker()).isEqualTo("max-score-picker");
            assertThat(r.profiles().get(1).filters()).containsExactly("decode-filter");
            assertThat(r.plugins()).containsKey("prefix-based-pd-decider");
            assertThat(r.policy().producers()).singleElement().isInstanceOf(ApproxPrefixCacheProducer.class);
        }
        assertThat(resolve(resource("pd.yaml")).specs().get("approx-prefix-cache-producer").parameters()
                .path("maxPrefixTokensToMatch").asInt()).isEqualTo(4096);
        assertThat(resolve(resource("pd-legacy.yaml")).specs().get("approx-prefix-cache-producer").parameters()
                .path("maxPrefixBlocksToMatch").asInt()).isEqualTo(256);
    }

    @Test
    void preciseConfigsOfEveryEraResolveToAPreciseProducerAndTheirWeights() throws Exception {
        ResolvedConfig current = resolve(resource("precise.yaml"));
        assertThat(current.profiles().get(0).filters()).containsExactly("decode-filter");
        assertThat(current.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::name, ResolvedConfig.Weighted::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 2.0),
                        org.assertj.core.groups.Tuple.tuple("kv-cache-utilization-scorer", 1.0),
                        org.assertj.core.groups.Tuple.tuple("queue-scorer", 1.0));
        assertThat(current.policy().producers()).extracting(p -> p.type())
                .containsExactly("token-producer", "precise-prefix-cache-producer");
        assertThat(((PrecisePrefixCacheProducer) current.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(64);

        ResolvedConfig legacy = resolve(resource("precise-legacy.yaml"));
        assertThat(legacy.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::name)
                .containsExactly("precise-prefix-cache-scorer", "kv-cache-utilization-scorer", "queue-scorer");
        assertThat(legacy.profiles().get(0).others()).containsExactly("tokenizer");
        assertThat(legacy.autoAdded()).contains("precise-prefix-cache-producer");
        assertThat(((PrecisePrefixCacheProducer) legacy.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(64);

        ResolvedConfig tracking = resolve(resource("cache-tracking.yaml"));
        assertThat(tracking.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::type, ResolvedConfig.Weighted::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 3.0),
                        org.assertj.core.groups.Tuple.tuple("kv-cache-utilization-scorer", 1.0),
                        org.assertj.core.groups.Tuple.tuple("queue-scorer", 1.0));
        assertThat(tracking.plugins().get("precise-prefix-cache-producer")).isInstanceOf(PrecisePrefixCacheProducer.class);

        ResolvedConfig lru = resolve(resource("no-hit-lru.yaml"));
        assertThat(lru.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::name, ResolvedConfig.Weighted::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 2.0),
                        org.assertj.core.groups.Tuple.tuple("no-hit-lru-scorer", 1.0));
        assertThat(((PrecisePrefixCacheProducer) lru.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(5);
    }

    @Test
    void aDeciderNamedButNotDeclaredIsAConfigErrorAtTheHandler() {
        assertThatThrownBy(() -> resolve("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: decode-filter
                - type: disagg-profile-handler
                  parameters:
                    deciders:
                      prefill: no-such-decider
                schedulingProfiles:
                - name: decode
                  plugins:
                  - pluginRef: decode-filter
                """)).isInstanceOf(ConfigException.class)
                // the line of the key that names it, deciders.prefill
                .hasMessageStartingWith("test.yaml:8: plugin 'disagg-profile-handler' (disagg-profile-handler):")
                .hasMessageContaining("no-such-decider");
    }

    @Test
    void homingDefaultIsPredictedTtftBesideLlmdsPrefixAndKvAndTheExactLoadScorers() {
        ResolvedConfig r = DefaultConfig.resolve(BuiltIns.registry(), CTX);
        assertThat(r.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::name, ResolvedConfig.Weighted::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("prefix-cache-scorer", 3.0),
                        org.assertj.core.groups.Tuple.tuple("kv-cache-utilization-scorer", 2.0),
                        org.assertj.core.groups.Tuple.tuple("queue-depth-scorer", 2.0),
                        org.assertj.core.groups.Tuple.tuple("no-hit-lru-scorer", 1.0),
                        org.assertj.core.groups.Tuple.tuple("active-request-scorer", 1.0),
                        org.assertj.core.groups.Tuple.tuple("token-load-scorer", 3.0),
                        org.assertj.core.groups.Tuple.tuple("predicted-ttft-scorer", 5.0));
        // no scraped queue depth: a queue that flickers between 0 and 1 between steps must not swing a pick
        assertThat(r.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::name)
                .doesNotContain("queue-scorer");
    }

    @Test
    void noProfilesMeansOneDefaultProfileOfEveryFilterScorerAndPicker() throws Exception {
        ResolvedConfig r = resolve("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: queue-scorer
                - type: kv-cache-utilization-scorer
                """);
        assertThat(r.profiles().get(0).scorers()).extracting(ResolvedConfig.Weighted::weight).containsExactly(1.0, 1.0);
    }

    @Test
    void legacyIndexParametersOnThePrefixScorerMoveToItsProducer() throws Exception {
        ResolvedConfig r = resolve("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: prefix-cache-scorer
                  parameters:
                    maxPrefixBlocksToMatch: 8
                    lruCapacityPerServer: 100
                """);
        assertThat(r.specs().get("approx-prefix-cache-producer").parameters().path("maxPrefixBlocksToMatch").asInt())
                .isEqualTo(8);
        assertThat(r.autoAdded()).contains("approx-prefix-cache-producer");
    }

    @Test
    void aReloadKeepsPluginsWhoseConfigIsUnchanged() throws Exception {
        String base = """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: prefix-cache-scorer
                - type: queue-scorer
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: prefix-cache-scorer
                    weight: %s
                  - pluginRef: queue-scorer
                """;
        ConfigResolver resolver = new ConfigResolver(BuiltIns.registry());
        ResolvedConfig first = resolver.resolve(ConfigParser.parse(base.formatted(3), "a.yaml"), CTX);
        ResolvedConfig second = resolver.resolve(ConfigParser.parse(base.formatted(5), "a.yaml"), CTX, first);
        assertThat(second.plugins().get("approx-prefix-cache-producer"))
                .isSameAs(first.plugins().get("approx-prefix-cache-producer"));
        assertThat(second.profiles().get(0).scorers().get(0).weight()).isEqualTo(5);
    }
}
