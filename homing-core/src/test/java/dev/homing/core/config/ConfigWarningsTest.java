package dev.homing.core.config;

import static dev.homing.core.config.ConfigResolverTest.CTX;
import static dev.homing.core.config.ConfigResolverTest.resolve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import dev.homing.core.plugins.scorer.NoHitLruScorer;
import org.junit.jupiter.api.Test;

/**
 * What stays strict and what is only warned about. llm-d decodes the EndpointPickerConfig itself strictly (Kubernetes'
 * strict decoding: an unknown field of the document, of a plugin entry or of a profile entry is an error), but hands
 * each plugin its {@code parameters} raw, and its factories decode them with Go's {@code encoding/json}, which ignores
 * keys it does not know, at any depth. So a parameter no plugin knows loads with a warning naming the file, the line
 * and the key's path (the help a misspelling needs, without refusing a file llm-d accepts), while an unknown plugin
 * type, a dangling reference or a value of the wrong kind still stops start-up.
 */
class ConfigWarningsTest {

    private static final String HEAD = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n";

    @Test
    void aMisspeltParameterLoadsWithAWarningNamingFileLineAndTheKnownOnes() throws Exception {
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: no-hit-lru-scorer
                  parameters:
                    lruSize: 4
                    lruSiz: 5
                """);
        assertThat(r.plugins().get("no-hit-lru-scorer")).isInstanceOf(NoHitLruScorer.class);
        assertThat(r.specs().get("no-hit-lru-scorer").parameters().path("lruSize").asInt()).isEqualTo(4);
        assertThat(r.warnings()).containsExactly("test.yaml:7: plugin 'no-hit-lru-scorer' (no-hit-lru-scorer): "
                + "parameter 'lruSiz': unknown, ignored (no parameter has this name, in any case; llm-d ignores it too); known here: "
                + "lruSize, prefixPluginName, prefixPluginType");
        assertThat(r.describe()).contains("warning: test.yaml:7: plugin 'no-hit-lru-scorer'");
    }

    @Test
    void aParameterSpeltInAnotherCaseIsAppliedAsLlmDAppliesItAndOnlyAnotherSpellingBesideItIsWarned() throws Exception {
        // Go's encoding/json matches keys to fields ignoring case, so llm-d reads LruSize as lruSize
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: no-hit-lru-scorer
                  parameters:
                    LruSize: 2048
                - type: precise-prefix-cache-producer
                  parameters:
                    TokenProcessorConfig:
                      BlockSize: 5
                    kvEventsConfig:
                      ZmqEndpoint: tcp://*:5557
                      zmqendpoint: tcp://*:5558
                """);
        PrecisePrefixCacheProducer p = (PrecisePrefixCacheProducer) r.plugins().get("precise-prefix-cache-producer");
        assertThat(p.index().blockSize()).isEqualTo(5);
        assertThat(p.events().zmqEndpoint()).isEqualTo("tcp://*:5558");
        assertThat(r.warnings()).containsExactly("test.yaml:12: plugin 'precise-prefix-cache-producer' "
                + "(precise-prefix-cache-producer): parameter 'kvEventsConfig.ZmqEndpoint': ignored: another spelling "
                + "of parameter 'zmqEndpoint', which 'zmqendpoint' sets here (llm-d matches parameter names ignoring "
                + "case and applies one of them; keep one)");
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: no-hit-lru-scorer
                  parameters:
                    LruSize: lots
                """)).isInstanceOf(ConfigException.class).hasMessageStartingWith("test.yaml:6: plugin "
                + "'no-hit-lru-scorer' (no-hit-lru-scorer): parameter 'LruSize' must be an integer");
    }

    @Test
    void anUnknownNestedKeyIsAWarningNamingFileLineAndItsPath() throws Exception {
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: precise-prefix-cache-producer
                  parameters:
                    indexerConfig:
                      tokenProcessorConfig:
                        blockSize: 5
                      kvBlockIndexConfig:
                        enableMetrics: false
                        maxPrefixBlocksToMatch: 256
                """);
        assertThat(r.warnings()).singleElement().asString().startsWith("test.yaml:11: plugin "
                + "'precise-prefix-cache-producer' (precise-prefix-cache-producer): parameter "
                + "'indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch': unknown, ignored")
                .contains("known here: costAwareMemoryConfig, enableMetrics, inMemoryConfig, maxPrefixTokensToMatch");
    }

    @Test
    void aKeyInAListItemIsNamedWithItsIndexAndLine() throws Exception {
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: core-metrics-extractor
                  parameters:
                    engineConfigs:
                    - name: a
                    - name: b
                      colour: blue
                """);
        assertThat(r.warnings()).singleElement().asString().startsWith("test.yaml:9: plugin 'core-metrics-extractor' "
                + "(core-metrics-extractor): parameter 'engineConfigs[1].colour': unknown, ignored");
    }

    @Test
    void aNestedKeyOnAScorerThatImpliesItsProducerIsWarnedAtTheScorersLine() throws Exception {
        // the older precise form: the index parameters written on the scorer move to the producer it implies
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - type: precise-prefix-cache-scorer
                  parameters:
                    indexerConfig:
                      kvBlockIndexConfig:
                        maxPrefixBlocksToMatch: 256
                """);
        assertThat(r.autoAdded()).contains("precise-prefix-cache-producer");
        assertThat(r.warnings()).singleElement().asString().startsWith("test.yaml:9: plugin "
                + "'precise-prefix-cache-producer' (precise-prefix-cache-producer): parameter "
                + "'indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch': unknown");
    }

    @Test
    void aValueOfTheWrongKindInsideParametersIsStillAnError() {
        // Go's json.Unmarshal fails on a type mismatch, so llm-d refuses these too
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: precise-prefix-cache-producer
                  parameters:
                    indexerConfig:
                      kvBlockIndexConfig:
                        enableMetrics: sometimes
                """)).isInstanceOf(ConfigException.class).hasMessageStartingWith("test.yaml:8: ")
                .hasMessageContaining("'enableMetrics' must be true or false");
    }

    @Test
    void aQuotedIntegerIsRefusedAtItsLineAsGoRefusesAStringForAnInt() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: precise-prefix-cache-producer
                  parameters:
                    kvEventsConfig:
                      concurrency: "4"
                """)).isInstanceOf(ConfigException.class).hasMessage("test.yaml:7: plugin "
                + "'precise-prefix-cache-producer' (precise-prefix-cache-producer): parameter 'kvEventsConfig': "
                + "parameter 'concurrency' must be an integer, got '4' (a string: write the number without quotes)");
    }

    @Test
    void anUnknownPluginTypeStillStopsTheFileAtItsLineWhateverElseIsOnlyWarned() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: no-hit-lru-scorer
                  parameters:
                    lruSiz: 5
                - type: queue-scorr
                """)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("test.yaml:7: unknown plugin type 'queue-scorr'; known types: ")
                .hasMessageContaining("queue-scorer");
    }

    @Test
    void aDanglingPluginRefStillStopsTheFileAtItsLine() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                  parameters:
                    bogus: 1
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: queue
                """)).isInstanceOf(ConfigException.class)
                .hasMessage("test.yaml:10: profile 'default' refers to 'queue', which is not a plugin; plugins: "
                        + "queue-scorer");
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                saturationDetector:
                  pluginRef: utilisation-detector
                """)).hasMessageStartingWith("test.yaml:6: saturationDetector refers to 'utilisation-detector'");
    }

    @Test
    void theDocumentAndItsEntriesStayStrictAsKubernetesDecodesThem() {
        assertThatThrownBy(() -> resolve(HEAD + "plugin:\n- type: queue-scorer\n"))
                .hasMessageStartingWith("test.yaml:3: unknown field 'plugin' in an EndpointPickerConfig");
        assertThatThrownBy(() -> resolve(HEAD + "plugins:\n- type: queue-scorer\n  params: {}\n"))
                .hasMessageStartingWith("test.yaml:5: unknown field 'params' in plugins[0]");
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: queue-scorer
                    wieght: 2
                """)).hasMessageStartingWith("test.yaml:9: unknown field 'wieght' in a plugin of profile default");
    }

    @Test
    void aPluginAReloadKeepsIsWarnedAboutAgainAtItsNewLine() throws Exception {
        String body = """
                plugins:
                - type: no-hit-lru-scorer
                  parameters:
                    lruSiz: 5
                """;
        ResolvedConfig first = resolve(HEAD + body);
        ResolvedConfig again = new ConfigResolver(BuiltIns.registry())
                .resolve(ConfigParser.parse(HEAD + "# a comment moves it down\n" + body, "test.yaml"), CTX, first);
        assertThat(again.plugins().get("no-hit-lru-scorer")).isSameAs(first.plugins().get("no-hit-lru-scorer"));
        assertThat(first.warnings()).singleElement().asString().startsWith("test.yaml:6: ");
        assertThat(again.warnings()).singleElement().asString().startsWith("test.yaml:7: ")
                .contains("parameter 'lruSiz'");
    }

    @Test
    void aProfileWithoutAPickerTakesTheOneTheFileDeclaresAsLlmDDoes() throws Exception {
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - type: random-picker
                schedulingProfiles:
                - name: default
                  plugins:
                  - pluginRef: queue-scorer
                """);
        assertThat(r.profiles().get(0).picker()).isEqualTo("random-picker");
        assertThat(r.autoAdded()).doesNotContain("max-score-picker");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void aDetectorNoReferenceNamesIsNotTheSaturationDetectorAsInLlmD() throws Exception {
        ResolvedConfig r = resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - type: concurrency-detector
                """);
        assertThat(r.saturationDetector()).isEqualTo("utilization-detector");
        assertThat(r.autoAdded()).contains("utilization-detector");
        assertThat(r.warnings()).singleElement().asString().startsWith("test.yaml:5: 'concurrency-detector' is a "
                + "saturation detector, but saturationDetector names none");
    }

    @Test
    void aPluginNamedAfterTheDefaultDetectorThatIsNoDetectorIsRefusedAtItsLine() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - name: utilization-detector
                  type: kv-cache-utilization-scorer
                """)).isInstanceOf(ConfigException.class).hasMessageStartingWith("test.yaml:5: 'utilization-detector' "
                + "is the saturation detector when saturationDetector names none, but that plugin is not one");
    }

    @Test
    void theDeprecatedApiVersionAndAnUnknownFeatureGateAreWarnedAtTheirLines() throws Exception {
        ResolvedConfig r = resolve("""
                # a comment
                apiVersion: inference.networking.x-k8s.io/v1alpha1
                kind: EndpointPickerConfig
                featureGates:
                - flowControl
                - warpDrive
                plugins:
                - type: queue-scorer
                """);
        assertThat(r.warnings()).containsExactly("test.yaml:2: apiVersion inference.networking.x-k8s.io/v1alpha1 is "
                + "deprecated; use llm-d.ai/v1alpha1", "test.yaml:6: unknown feature gate 'warpDrive' ignored");
    }

    @Test
    void twoProfileHandlersAreRefusedAtTheSecondOnesLine() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - type: single-profile-handler
                - type: disagg-profile-handler
                """)).isInstanceOf(ConfigException.class).hasMessage("test.yaml:6: more than one profile handler: "
                + "single-profile-handler, disagg-profile-handler");
    }

    @Test
    void withoutProfilesTwoPickersInTheDefaultProfileAreRefusedAtTheSecondOnesLine() {
        assertThatThrownBy(() -> resolve(HEAD + """
                plugins:
                - type: queue-scorer
                - type: max-score-picker
                - type: random-picker
                """)).isInstanceOf(ConfigException.class).hasMessage("test.yaml:6: profile 'default' has two "
                + "pickers: 'max-score-picker' and 'random-picker'");
    }
}
