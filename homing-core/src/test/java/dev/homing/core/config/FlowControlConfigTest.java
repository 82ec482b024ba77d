package dev.homing.core.config;

import static dev.homing.core.config.ConfigResolverTest.CTX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.flowcontrol.EdfOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.PriorityThenTimeEvictionOrderPolicy;
import dev.homing.core.plugins.flowcontrol.RoundRobinFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.SheddableEvictionFilter;
import dev.homing.core.plugins.flowcontrol.StaticUsageLimitPolicy;
import org.junit.jupiter.api.Test;

/** {@code flowControl:} resolved: references, defaults, templates, and errors naming the line. */
class FlowControlConfigTest {

    private static ResolvedConfig load(String yaml) throws ConfigException {
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(yaml, "fc.yaml"), CTX);
    }

    private static final String HEAD = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            featureGates: [flowControl]
            """;

    @Test
    void withoutTheGateTheSectionIsIgnoredAndSaidToBe() throws Exception {
        ResolvedConfig r = load("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                flowControl:
                  maxBytes: 10Mi
                """);
        assertThat(r.flowControl()).isNull();
        assertThat(r.policy().flowControlled()).isFalse();
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("flowControl is ignored"));
    }

    @Test
    void declaredPoliciesAndTemplatesAreUsed() throws Exception {
        ResolvedConfig r = load(HEAD + """
                plugins:
                - type: round-robin-fairness-policy
                  name: rr
                - type: static-usage-limit-policy
                  parameters: {threshold: 0.8}
                flowControl:
                  maxRequests: 1k
                  defaultRequestTTL: 2s
                  usageLimitPolicyPluginRef: static-usage-limit-policy
                  enableEviction: true
                  defaultPriorityBand:
                    fairnessPolicyRef: rr
                    maxRequests: 50
                  defaultNegativePriorityBand:
                    maxBytes: 1Mi
                  priorityBands:
                  - priority: 10
                    orderingPolicyRef: edf-ordering-policy
                  - priority: -5
                """);
        FlowControlSettings f = r.flowControl();
        assertThat(f.maxRequests()).isEqualTo(1000);
        assertThat(f.defaultTtlNanos()).isEqualTo(2_000_000_000L);
        assertThat(f.usageLimit().ceiling(0.5, 0)).isEqualTo(0.8);
        assertThat(f.usageLimit()).isInstanceOf(StaticUsageLimitPolicy.class);
        assertThat(f.defaultBand().fairness()).isInstanceOf(RoundRobinFairnessPolicy.class);
        assertThat(f.defaultBand().maxRequests()).isEqualTo(50);
        assertThat(f.band(10).ordering()).isInstanceOf(EdfOrderingPolicy.class);
        assertThat(f.band(10).fairness()).isSameAs(f.defaultBand().fairness()); // unset keys from the template
        assertThat(f.band(-5).maxBytes()).isEqualTo(1 << 20); // a negative band from the negative template
        assertThat(f.band(-2).maxBytes()).isEqualTo(1 << 20);
        assertThat(f.band(3).maxBytes()).isEqualTo(1_000_000_000L);
        assertThat(f.evictionFilter()).isInstanceOf(SheddableEvictionFilter.class);
        assertThat(f.evictionOrder()).isInstanceOf(PriorityThenTimeEvictionOrderPolicy.class);
        assertThat(r.describe()).contains("band 10: rr, edf-ordering-policy").contains("TTL 2000 ms");
    }

    @Test
    void aDuplicatePriorityIsAnErrorAtItsLine() {
        assertThatThrownBy(() -> load(HEAD + """
                flowControl:
                  priorityBands:
                  - priority: 1
                  - priority: 1
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("fc.yaml:7")
                .hasMessageContaining("duplicate priority level 1");
    }

    @Test
    void aPolicyReferenceToNothingOrToTheWrongKindIsAnError() {
        assertThatThrownBy(() -> load(HEAD + """
                flowControl:
                  priorityBands:
                  - priority: 1
                    fairnessPolicyRef: no-such-policy
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("fc.yaml:6")
                .hasMessageContaining("'no-such-policy', which is neither a declared plugin nor a plugin type");
        assertThatThrownBy(() -> load(HEAD + """
                flowControl:
                  priorityBands:
                  - priority: 1
                    orderingPolicyRef: round-robin-fairness-policy
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("does not implement OrderingPolicy");
        assertThatThrownBy(() -> load(HEAD + """
                plugins:
                - type: static-usage-limit-policy
                  parameters: {threshold: 1.5}
                """)).hasMessageContaining("'threshold' must be in (0, 1]");
    }

    @Test
    void aGateTurnedOffByNameEqualsFalseIsOff() throws Exception {
        String off = """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                featureGates: [flowControl=false]
                """;
        ResolvedConfig r = load(off);
        assertThat(r.flowControl()).isNull();
        assertThat(r.warnings()).noneMatch(w -> w.contains("unknown feature gate"));
        assertThat(load(off.replace("=false", "=true")).flowControl()).isNotNull();
    }

    @Test
    void aBandWithoutAPriorityIsAnError() {
        assertThatThrownBy(() -> load(HEAD + """
                flowControl:
                  priorityBands:
                  - maxBytes: 1Gi
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("needs a 'priority'");
    }
}
