package dev.homing.core.config;

import static dev.homing.core.config.ConfigResolverTest.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.admitter.ProbabilisticAdmitter;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.TokenProducer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 13 configs of llm-d's {@code deploy/config/}, as stored upstream (byte for byte; where each copy comes from is
 * in {@code configs/llm-d/upstream/README.md}), each resolved as llm-d resolves it: the same profiles, filters, scorer
 * types and weights, pickers and profile handler, llm-d's auto-defaults, and exactly the warnings Homing owes its
 * reader. llm-d also adds defaults Homing has no plugin object for (openai-parser, metrics-data-source with
 * core-metrics-extractor when the file has no dataLayer, the flow-control policies): Homing behaves as those do
 * without listing them.
 */
class UpstreamConfigsTest {

    private static final String LEGACY = ": apiVersion inference.networking.x-k8s.io/v1alpha1 is deprecated; use "
            + "llm-d.ai/v1alpha1";
    private static final String IGNORED = ": unknown, ignored (no parameter has this name, in any case; llm-d ignores it too); known here: ";
    private static final String KV_BLOCK_INDEX_KEYS = "costAwareMemoryConfig, enableMetrics, inMemoryConfig, "
            + "maxPrefixTokensToMatch, metricsLoggingInterval, redisConfig, valkeyConfig";

    private static ResolvedConfig load(String file) throws Exception {
        String text;
        try (InputStream in = UpstreamConfigsTest.class.getResourceAsStream("/configs/llm-d/upstream/" + file)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, file), CTX);
    }

    /** A profile as {@code name | filters | scorer:type:weight, ... | picker}; empty parts are "-". */
    private static ResolvedConfig.Profile profile(String spec) {
        String[] p = spec.split("\\|", -1);
        List<ResolvedConfig.Weighted> scorers = p[2].isBlank() || p[2].trim().equals("-") ? List.of()
                : Arrays.stream(p[2].split(",")).map(String::trim).map(s -> s.split(":"))
                .map(w -> new ResolvedConfig.Weighted(w[0], w[1], Double.parseDouble(w[2]))).toList();
        List<String> filters = p[1].trim().equals("-") ? List.of() : List.of(p[1].trim().split(",\\s*"));
        return new ResolvedConfig.Profile(p[0].trim(), filters, scorers, p[3].trim(), List.of());
    }

    private static void resolvesTo(ResolvedConfig r, String handler, String detector, List<String> autoAdded,
                                   String... profiles) {
        assertThat(r.profiles()).containsExactlyElementsOf(Arrays.stream(profiles).map(UpstreamConfigsTest::profile)
                .toList());
        assertThat(r.profileHandler()).isEqualTo(handler);
        assertThat(r.saturationDetector()).isEqualTo(detector);
        assertThat(r.autoAdded()).containsExactlyElementsOf(autoAdded);
    }

    /** Every warning of every file begins {@code FILE:LINE: }, as the docs say. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"dp-epp-config.yaml", "epp-config.yaml",
            "epp-estimate-prefix-cache-config.yaml", "epp-precise-prefix-cache-config.yaml", "pd-epp-config.yaml",
            "probabilistic-admitter-epp-config.yaml", "sim-e-p-d-epp-config.yaml", "sim-e-pd-epp-config.yaml",
            "sim-epp-config.yaml", "sim-epp-kvcache-config.yaml", "sim-epp-no-hit-lru.yaml",
            "sim-epp-tokenizer-vllm-http-config.yaml", "sim-pd-epp-config.yaml"})
    void everyWarningNamesItsFileAndLine(String file) throws Exception {
        assertThat(load(file).warnings()).allSatisfy(w -> assertThat(w).matches(
                java.util.regex.Pattern.quote(file) + ":[1-9][0-9]*: .+"));
    }

    @Test
    void dataParallel() throws Exception {
        ResolvedConfig r = load("dp-epp-config.yaml");
        resolvesTo(r, "data-parallel-profile-handler", "utilization-detector",
                List.of("approx-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | prefix-cache-scorer:prefix-cache-scorer:2 | max-score-picker");
        // llm-d's data-parallel handler reads primaryPort (8000); the file's older targetPort is ignored, as there
        assertThat(r.warnings()).containsExactly("dp-epp-config.yaml:3" + LEGACY, "dp-epp-config.yaml:11: plugin "
                + "'data-parallel-profile-handler' (data-parallel-profile-handler): parameter 'targetPort'" + IGNORED
                + "primaryPort");
    }

    @Test
    void aggregatedWithThePrecisePrefixScorer() throws Exception {
        ResolvedConfig r = load("epp-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:2 | max-score-picker");
        assertThat(r.policy().producers()).singleElement().isInstanceOf(PrecisePrefixCacheProducer.class);
        assertThat(r.warnings()).containsExactly("epp-config.yaml:3" + LEGACY);
    }

    @Test
    void estimatedPrefixWithLoadAware() throws Exception {
        ResolvedConfig r = load("epp-estimate-prefix-cache-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("approx-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | prefix-cache-scorer:prefix-cache-scorer:1, "
                        + "load-aware-scorer:load-aware-scorer:1 | max-score-picker");
        assertThat(r.policy().producers()).singleElement().isInstanceOf(ApproxPrefixCacheProducer.class);
        assertThat(r.warnings()).containsExactly("epp-estimate-prefix-cache-config.yaml:3" + LEGACY);
    }

    @Test
    void preciseWithTokensAndTheDataLayer() throws Exception {
        ResolvedConfig r = load("epp-precise-prefix-cache-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:2, "
                        + "kv-cache-utilization-scorer:kv-cache-utilization-scorer:1, queue-scorer:queue-scorer:1 "
                        + "| max-score-picker");
        assertThat(r.plugins()).containsKeys("token-producer", "endpoint-notification-source", "metrics-data-source",
                "core-metrics-extractor");
        assertThat(r.policy().producers()).hasExactlyElementsOfTypes(TokenProducer.class,
                PrecisePrefixCacheProducer.class);
        assertThat(((PrecisePrefixCacheProducer) r.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(64);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void prefillDecodeWithIndexParametersOnTheScorer() throws Exception {
        ResolvedConfig r = load("pd-epp-config.yaml");
        resolvesTo(r, "disagg-profile-handler", "utilization-detector",
                List.of("approx-prefix-cache-producer", "utilization-detector"),
                "prefill | prefill-filter | prefix-cache-scorer:prefix-cache-scorer:2, queue-scorer:queue-scorer:1 "
                        + "| max-score-picker",
                "decode | decode-filter | prefix-cache-scorer:prefix-cache-scorer:2, queue-scorer:queue-scorer:1 "
                        + "| max-score-picker");
        assertThat(r.specs().get("approx-prefix-cache-producer").parameters().path("lruCapacityPerServer").asInt())
                .isEqualTo(31250);
        assertThat(r.plugins()).containsKeys("disagg-headers-handler", "prefix-based-pd-decider");
        assertThat(r.warnings()).containsExactly("pd-epp-config.yaml:2" + LEGACY);
    }

    @Test
    void probabilisticAdmitterLoadsAsTheOneAdmitter() throws Exception {
        ResolvedConfig r = load("probabilistic-admitter-epp-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector", List.of("single-profile-handler"),
                "default | - | - | random-picker");
        assertThat(r.policy().admitters()).singleElement().isInstanceOf(ProbabilisticAdmitter.class);
        assertThat(r.pluginsOf(Admitter.class)).hasSize(1);
        assertThat(r.specs().get("utilization-detector").parameters().path("queueDepthThreshold").asLong())
                .isEqualTo(999_999_999L);
        assertThat(r.warnings()).singleElement().isEqualTo("probabilistic-admitter-epp-config.yaml:7" + LEGACY);
        assertThat(r.policy().saturationDetector()).isSameAs(r.plugins().get("utilization-detector"));
        assertThat(r.policy().flowControlled()).isFalse();
    }

    @Test
    void encodePrefillDecodeWithoutAPickerGetsLlmDsDefaultInEveryProfile() throws Exception {
        ResolvedConfig r = load("sim-e-p-d-epp-config.yaml");
        resolvesTo(r, "disagg-profile-handler", "utilization-detector",
                List.of("max-score-picker", "utilization-detector"),
                "encode | encode-filter | - | max-score-picker",
                "prefill | prefill-filter | queue-scorer:queue-scorer:1 | max-score-picker",
                "decode | decode-filter | queue-scorer:queue-scorer:1 | max-score-picker");
        assertThat(r.plugins()).containsKeys("always-disagg-multimodal-decider", "prefix-based-pd-decider");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void encodeThenPrefillDecodeReusesTheDeclaredPicker() throws Exception {
        ResolvedConfig r = load("sim-e-pd-epp-config.yaml");
        resolvesTo(r, "disagg-profile-handler", "utilization-detector", List.of("utilization-detector"),
                "encode | encode-filter | - | max-score-picker",
                "decode | decode-filter | - | max-score-picker");
        assertThat(r.plugins()).containsKeys("disagg-headers-handler", "always-disagg-multimodal-decider");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void simulatorPreciseWithAnIndexKeyLlmDIgnores() throws Exception {
        ResolvedConfig r = load("sim-epp-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:2 | max-score-picker");
        assertThat(((PrecisePrefixCacheProducer) r.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(5);
        assertThat(r.warnings()).containsExactly("sim-epp-config.yaml:3" + LEGACY, "sim-epp-config.yaml:12: plugin "
                + "'precise-prefix-cache-producer' (precise-prefix-cache-producer): parameter "
                + "'indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch'" + IGNORED + KV_BLOCK_INDEX_KEYS);
    }

    @Test
    void simulatorPreciseFedByKvEventsAndARenderEndpoint() throws Exception {
        ResolvedConfig r = load("sim-epp-kvcache-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:10 "
                        + "| max-score-picker");
        PrecisePrefixCacheProducer p = (PrecisePrefixCacheProducer) r.plugins().get("precise-prefix-cache-producer");
        assertThat(p.events().zmqEndpoint()).isEqualTo("tcp://0.0.0.0:5557");
        assertThat(p.index().blockSize()).isEqualTo(16);
        assertThat(r.plugins().get("token-producer")).isInstanceOf(TokenProducer.class);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void simulatorNewcomerSpreaderBesidePrecise() throws Exception {
        ResolvedConfig r = load("sim-epp-no-hit-lru.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:2, "
                        + "no-hit-lru-scorer:no-hit-lru-scorer:1 | max-score-picker");
        assertThat(r.specs().get("no-hit-lru-scorer").parameters().path("lruSize").asInt()).isEqualTo(2048);
        assertThat(((PrecisePrefixCacheProducer) r.plugins().get("precise-prefix-cache-producer")).index().blockSize())
                .isEqualTo(5);
        assertThat(r.warnings()).containsExactly("sim-epp-no-hit-lru.yaml:17: plugin 'precise-prefix-cache-producer' "
                + "(precise-prefix-cache-producer): parameter 'indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch'"
                + IGNORED + KV_BLOCK_INDEX_KEYS);
    }

    @Test
    void simulatorTokensFromTheRenderSidecar() throws Exception {
        ResolvedConfig r = load("sim-epp-tokenizer-vllm-http-config.yaml");
        resolvesTo(r, "single-profile-handler", "utilization-detector",
                List.of("precise-prefix-cache-producer", "utilization-detector"),
                "default | decode-filter | precise-prefix-cache-scorer:precise-prefix-cache-scorer:10 "
                        + "| max-score-picker");
        assertThat(r.policy().producers()).hasExactlyElementsOfTypes(TokenProducer.class,
                PrecisePrefixCacheProducer.class);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void simulatorPrefillDecodeWithAnExplicitApproximateProducer() throws Exception {
        ResolvedConfig r = load("sim-pd-epp-config.yaml");
        resolvesTo(r, "disagg-profile-handler", "utilization-detector", List.of("utilization-detector"),
                "prefill | prefill-filter | prefix-cache-scorer:prefix-cache-scorer:2, queue-scorer:queue-scorer:1 "
                        + "| max-score-picker",
                "decode | decode-filter | prefix-cache-scorer:prefix-cache-scorer:2, queue-scorer:queue-scorer:1 "
                        + "| max-score-picker");
        assertThat(r.specs().get("approx-prefix-cache-producer").parameters().path("autoTune").asBoolean()).isFalse();
        assertThat(r.warnings()).isEmpty();
    }
}
