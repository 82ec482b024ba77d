package dev.homing.core.config;

import static dev.homing.core.config.ConfigResolverTest.CTX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.flowcontrol.BandSettings;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.flowcontrol.FcfsOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.GlobalStrictFairnessPolicy;
import org.junit.jupiter.api.Test;

/**
 * llm-d's own config-loader cases for flow control, as its tests load them: the constants below are copied as they
 * stand in {@code pkg/epp/config/loader/testdata_test.go} of {@code llm-d/llm-d-router} at commit
 * {@code 1ab37afea1840601c21181e4af30cf7db14e1922} (their names kept), and each test asserts what llm-d's
 * {@code configloader_test.go} (llm-d-inference-scheduler {@code 159e739b}) asserts of them.
 */
class UpstreamFlowControlCasesTest {

    static final String SUCCESS_FLOW_CONTROL_CONFIG_TEXT = """

            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - name: maxScore
              type: max-score-picker
            schedulingProfiles:
            - name: default
              plugins:
              - pluginRef: maxScore
            featureGates:
            - flowControl
            flowControl:
              maxBytes: "1024"
              defaultRequestTTL: 1m
            """;

    static final String SUCCESS_FLOW_CONTROL_CONFIG_DISABLED_TEXT = """

            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - name: maxScore
              type: max-score-picker
            schedulingProfiles:
            - name: default
              plugins:
              - pluginRef: maxScore
            featureGates: [] # Explicitly empty
            flowControl:
              maxBytes: "1024"
            """;

    static final String SUCCESS_COMPLEX_FLOW_CONTROL_CONFIG_TEXT = """

            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - name: maxScore
              type: max-score-picker
            - name: customFCFS
              type: fcfs-ordering-policy
            - name: customFairness
              type: global-strict-fairness-policy
            schedulingProfiles:
            - name: default
              plugins:
              - pluginRef: maxScore
            featureGates:
            - flowControl
            flowControl:
              priorityBands:
              - priority: 100
                orderingPolicyRef: customFCFS
                fairnessPolicyRef: customFairness
            """;

    static final String ERROR_FLOW_CONTROL_MISSING_PLUGIN_TEXT = """

            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - name: maxScore
              type: max-score-picker
            schedulingProfiles:
            - name: default
              plugins:
              - pluginRef: maxScore
            featureGates:
            - flowControl
            flowControl:
              priorityBands:
              - priority: 100
                orderingPolicyRef: non-existent-policy
            """;

    private static ResolvedConfig load(String text) throws ConfigException {
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, "testdata_test.go"), CTX);
    }

    @Test
    void flowControlConfig() throws Exception {
        ResolvedConfig r = load(SUCCESS_FLOW_CONTROL_CONFIG_TEXT);
        FlowControlSettings f = r.flowControl();
        assertThat(f).isNotNull();
        assertThat(f.maxBytes()).isEqualTo(1024); // "MaxBytes should match yaml", a quoted quantity
        assertThat(f.defaultTtlNanos()).isEqualTo(60_000_000_000L);
        // "Loader should inject global-strict-fairness-policy" / "fcfs-ordering-policy", named after their types
        assertThat(r.plugins()).containsKeys("global-strict-fairness-policy", "fcfs-ordering-policy");
        assertThat(f.defaultBand().ordering().name()).isEqualTo("fcfs-ordering-policy");
        assertThat(f.defaultBand().fairness().name()).isEqualTo("global-strict-fairness-policy");
    }

    @Test
    void flowControlConfigPresentButFeatureGateMissing() throws Exception {
        ResolvedConfig r = load(SUCCESS_FLOW_CONTROL_CONFIG_DISABLED_TEXT);
        assertThat(r.config().flowControl()).isNotNull(); // "Raw config should parse the struct"
        assertThat(r.flowControl()).isNull(); // "Internal config should be nil when FeatureGate is disabled"
    }

    @Test
    void complexFlowControlConfig() throws Exception {
        FlowControlSettings f = load(SUCCESS_COMPLEX_FLOW_CONTROL_CONFIG_TEXT).flowControl();
        assertThat(f.bands()).containsKey(100);
        BandSettings band = f.bands().get(100);
        assertThat(band.ordering().name()).isEqualTo("customFCFS");
        assertThat(band.ordering()).isInstanceOf(FcfsOrderingPolicy.class);
        assertThat(band.fairness().name()).isEqualTo("customFairness");
        assertThat(band.fairness()).isInstanceOf(GlobalStrictFairnessPolicy.class);
    }

    @Test
    void flowControlMissingPlugin() {
        assertThatThrownBy(() -> load(ERROR_FLOW_CONTROL_MISSING_PLUGIN_TEXT)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("non-existent-policy");
    }
}
