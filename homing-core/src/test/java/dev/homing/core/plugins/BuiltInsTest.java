package dev.homing.core.plugins;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginRegistry;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.plugin.ReferencesPlugins;
import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.Filter;
import dev.homing.core.framework.scheduling.PdDecider;
import dev.homing.core.framework.scheduling.Picker;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.plugins.scorer.KvCacheUtilizationScorer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BuiltInsTest {

    private static final PluginRegistry REGISTRY = BuiltIns.registry();

    /** Types that cannot be created without parameters: the parameter their error must name, and a minimal set. */
    private static final Map<String, String> REQUIRED = Map.of("by-label", "label", "k8s-notification-source", "version");
    private static final Map<String, String> MINIMAL = Map.of(
            "by-label", "'label':'tier','allowsNoLabel':true",
            "k8s-notification-source", "'version':'v1','kind':'Pod'");

    static Set<String> types() {
        return REGISTRY.types();
    }

    /** Types Homing adds to llm-d's catalogue; anything else registered must be one of llm-d's. */
    private static final Set<String> HOMING_ONLY = Set.of("prefill-load-scorer", "predicted-ttft-scorer", "queue-depth-scorer");

    @Test
    void everyLlmDTypeOfTheCatalogueIsRegisteredPlusHomingsOwn() {
        Set<String> llmD = new TreeSet<>(REGISTRY.types());
        llmD.removeAll(HOMING_ONLY);
        assertThat(REGISTRY.types()).containsAll(HOMING_ONLY);
        assertThat(llmD).containsExactlyInAnyOrderElementsOf(new TreeSet<>(Set.of(
                // prefix cache and scorers
                "approx-prefix-cache-producer", "prefix-cache-scorer", "queue-scorer", "kv-cache-utilization-scorer",
                "precise-prefix-cache-producer", "precise-prefix-cache-scorer", "token-producer", "tokenizer",
                "kv-cache-scorer", "no-hit-lru-scorer", "active-request-scorer", "running-requests-size-scorer",
                "load-aware-scorer", "token-load-scorer", "session-affinity-scorer", "lora-affinity-scorer",
                "context-length-aware", "latency-scorer",
                // filters and saturation detectors
                "decode-filter", "prefill-filter", "encode-filter", "label-selector-filter", "by-label-selector",
                "by-label", "prefix-cache-affinity-filter", "utilization-detector", "concurrency-detector",
                // admitters
                "probabilistic-admitter", "latency-slo-admitter",
                // flow control
                "global-strict-fairness-policy", "round-robin-fairness-policy", "fcfs-ordering-policy",
                "edf-ordering-policy", "static-usage-limit-policy", "priority-usage-limit-policy",
                "sheddable-eviction-filter",
                "priority-then-time-eviction-order-policy",
                // pickers
                "max-score-picker", "random-picker", "weighted-random-picker",
                // profile handlers, deciders, headers
                "single-profile-handler", "disagg-profile-handler", "pd-profile-handler", "disagg-headers-handler",
                "prefill-header-handler", "data-parallel-profile-handler", "prefix-based-pd-decider",
                "always-disagg-pd-decider", "always-disagg-multimodal-decider",
                // data layer and parsers
                "metrics-data-source", "core-metrics-extractor", "endpoint-notification-source",
                "k8s-notification-source", "models-data-source", "models-data-extractor", "openai-parser",
                "vllmgrpc-parser", "passthrough-parser", "vertexai-parser")));
    }

    @ParameterizedTest
    @MethodSource("types")
    void createsWithoutParametersOrNamesWhatIsRequired(String type) {
        if (REQUIRED.containsKey(type)) {
            assertThatThrownBy(() -> REGISTRY.create(type, null, params("{}"), context()))
                    .isInstanceOf(PluginConfigException.class).hasMessageContaining("'" + REQUIRED.get(type) + "'");
            return;
        }
        Plugin p = REGISTRY.create(type, null, params("{}"), context());
        String expected = type.equals("kv-cache-scorer") ? KvCacheUtilizationScorer.TYPE : type;
        assertThat(p.type()).isEqualTo(expected);
        assertThat(p.name()).isEqualTo(type); // unnamed plugins are named after the type the config wrote
    }

    @Test
    void aNamedPluginKeepsItsNameAndABlankNameIsTheType() {
        assertThat(REGISTRY.create("vllmgrpc-parser", "grpc", params("{}"), context()))
                .extracting(Plugin::name, Plugin::type).containsExactly("grpc", "vllmgrpc-parser");
        assertThat(REGISTRY.create("passthrough-parser", " ", params("{}"), context()).name())
                .isEqualTo("passthrough-parser");
        assertThat(REGISTRY.create("endpoint-notification-source", "events", params("{}"), context()))
                .extracting(Plugin::name, Plugin::type).containsExactly("events", "endpoint-notification-source");
    }

    @ParameterizedTest
    @MethodSource("types")
    void leavesUnknownParametersAsNoticesNamingThem(String type) {
        String required = MINIMAL.getOrDefault(type, "");
        String json = "{" + required + (required.isEmpty() ? "" : ",") + "'bogus':1}";
        Parameters p = params(json);
        REGISTRY.create(type, "x", p, context());
        assertThat(p.notices()).filteredOn(n -> "bogus".equals(n.path())).singleElement()
                .satisfies(n -> assertThat(n.message()).startsWith("unknown, ignored"));
    }

    @Test
    void eachPluginPlaysItsRoles() {
        assertThat(create("utilization-detector")).isInstanceOf(SaturationDetector.class).isInstanceOf(Filter.class);
        assertThat(create("concurrency-detector")).isInstanceOf(SaturationDetector.class).isInstanceOf(Filter.class);
        assertThat(create("context-length-aware")).isInstanceOf(Scorer.class).isInstanceOf(Filter.class);
        assertThat(create("session-affinity-scorer")).isInstanceOf(Scorer.class).isInstanceOf(ResponseHooks.class);
        assertThat(create("disagg-profile-handler")).isInstanceOf(ProfileHandler.class).isInstanceOf(PreRequest.class)
                .isInstanceOf(ReferencesPlugins.class);
        assertThat(create("pd-profile-handler")).isInstanceOf(ProfileHandler.class);
        assertThat(create("data-parallel-profile-handler")).isInstanceOf(ProfileHandler.class);
        assertThat(create("disagg-headers-handler")).isInstanceOf(PreRequest.class);
        assertThat(create("prefill-header-handler")).isInstanceOf(PreRequest.class);
        assertThat(create("random-picker")).isInstanceOf(Picker.class);
        assertThat(create("probabilistic-admitter")).isInstanceOf(Admitter.class);
        assertThat(create("latency-slo-admitter")).isInstanceOf(Admitter.class);
        assertThat(create("weighted-random-picker")).isInstanceOf(Picker.class);
        for (String decider : new String[] {"prefix-based-pd-decider", "always-disagg-pd-decider",
                "always-disagg-multimodal-decider"}) {
            assertThat(create(decider)).isInstanceOf(PdDecider.class);
        }
    }

    /** The resolver casts a default to its role: a type that claimed a role it does not fill would fail there. */
    @Test
    void eachDefaultFillsTheRoleItClaims() {
        for (PluginType t : BuiltIns.TYPES) {
            t.defaultRole().ifPresent(role -> assertThat(create(t.name())).as(t.name()).isInstanceOf(role));
        }
        assertThat(REGISTRY.defaultFor(Picker.class)).hasValue("max-score-picker");
        assertThat(REGISTRY.defaultFor(ProfileHandler.class)).hasValue("single-profile-handler");
        assertThat(REGISTRY.defaultFor(SaturationDetector.class)).hasValue("utilization-detector");
    }

    @Test
    void aHandlerDeclaredBeforeItsDeciderResolvesOnceAllExist() {
        // llm-d's pd-epp-config.yaml order: the handler names a decider declared after it
        Map<String, Plugin> plugins = new LinkedHashMap<>();
        ReferencesPlugins handler = (ReferencesPlugins) REGISTRY.create("disagg-profile-handler", "handler",
                params("{'deciders':{'prefill':'prefix-based-pd-decider'}}"), context(plugins));
        plugins.put("handler", handler);
        plugins.put("prefix-based-pd-decider", REGISTRY.create("prefix-based-pd-decider", "prefix-based-pd-decider",
                params("{'nonCachedTokens':16}"), context(plugins)));
        handler.resolveReferences(plugins);

        plugins.remove("prefix-based-pd-decider");
        assertThatThrownBy(() -> handler.resolveReferences(plugins)).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'prefix-based-pd-decider'");
    }

    private static Plugin create(String type) {
        return REGISTRY.create(type, null, params("{}"), context());
    }
}
