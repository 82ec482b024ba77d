package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreMetricsExtractorTest {

    private CoreMetricsExtractor extractor(String json) {
        return CoreMetricsExtractor.create(null, params(json), context());
    }

    @Test
    void builtInEnginesWithVllmForUnlabelledEndpoints() {
        CoreMetricsExtractor e = extractor("{}");
        assertThat(e.engines()).containsOnlyKeys("vllm", "sglang", "trtllm-serve", "triton-tensorrt-llm");
        EngineConfig vllm = e.engineFor(Map.of());
        assertThat(vllm.name()).isEqualTo("vllm");
        assertThat(vllm.queuedRequests()).isEqualTo(new MetricSpec("vllm:num_requests_waiting", Map.of()));
        assertThat(vllm.cacheBlockSizeLabelName()).isEqualTo("block_size");
        assertThat(e.engineFor(Map.of("llm-d.ai/engine-type", "sglang")).cacheNumBlocksLabelName()).isEqualTo("num_pages");
        assertThat(e.engineFor(Map.of("inference.networking.k8s.io/engine-type", "trtllm-serve")).name())
                .isEqualTo("trtllm-serve");
        assertThat(e.engineFor(Map.of("llm-d.ai/engine-type", "unknown")).name()).isEqualTo("vllm");
        assertThat(e.engines().get("triton-tensorrt-llm").kvUsage().labels())
                .containsExactly(Map.entry("kv_cache_block_type", "fraction"));
    }

    @Test
    void configuredEnginesReplaceBuiltInsByNameAndMayBeTheDefault() {
        CoreMetricsExtractor e = extractor("{'defaultEngine':'mine','engineLabelKey':'engine','engineConfigs':["
                + "{'name':'vllm','queuedRequestsSpec':'vllm:num_requests_waiting{model_name=\\\"m\\\"}'},"
                + "{'name':'mine','kvUsageSpec':'my_kv{pool=a, kind != \\\"x\\\"}'}]}");
        assertThat(e.engines().get("vllm").queuedRequests().labels()).containsExactly(Map.entry("model_name", "m"));
        assertThat(e.engines().get("vllm").runningRequests()).isNull(); // replaced whole, not merged
        assertThat(e.engineFor(Map.of()).name()).isEqualTo("mine");
        assertThat(e.engineFor(Map.of("engine", "sglang")).name()).isEqualTo("sglang");
        assertThat(e.engines().get("mine").kvUsage().labels()).containsExactly(Map.entry("pool", "a"));
        assertThat(e.metricNames()).contains("my_kv", "sglang:token_usage", "vllm:num_requests_waiting");
    }

    @Test
    void mistakesAreRefused() {
        assertThatThrownBy(() -> extractor("{'defaultEngine':'tgi'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'defaultEngine'").hasMessageContaining("vllm");
        assertThatThrownBy(() -> extractor("{'engineConfigs':[{'name':'a'},{'name':'a'}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> extractor("{'engineConfigs':[{'name':'default'}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> extractor("{'engineConfigs':[{'kvUsageSpec':'x'}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("engineConfigs[0]").hasMessageContaining("'name'");
        assertThatThrownBy(() -> extractor("{'engineConfigs':[{'name':'a','kvUsageSpec':'bad name{'}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'kvUsageSpec'");
    }

    @Test
    void aMisspeltEngineKeyIsLeftAsANoticeNamingItsPathAsLlmDIgnoresIt() {
        var p = params("{'engineConfigs':[{'name':'a','kvUsage':'x'}]}");
        CoreMetricsExtractor.create(null, p, context());
        assertThat(p.notices()).extracting(n -> n.path()).containsExactly("engineConfigs[0].kvUsage");
    }

    @Test
    void metricSpecsReadQuotedAndUnquotedValues() {
        assertThat(MetricSpec.parse("p", "m{a=b,c=\"d e\", f='g'}"))
                .isEqualTo(new MetricSpec("m", Map.of("a", "b", "c", "d e", "f", "g")));
        assertThat(MetricSpec.parse("p", "  ")).isNull();
        assertThat(MetricSpec.parse("p", "m{a=~\"x.*\",__name__=\"m\"}").labels()).isEmpty();
        assertThatThrownBy(() -> MetricSpec.parse("p", "m{a=b c=d}")).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'p'");
    }
}
