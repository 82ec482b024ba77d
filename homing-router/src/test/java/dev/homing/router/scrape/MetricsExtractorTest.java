package dev.homing.router.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.plugins.datalayer.EngineConfig;
import dev.homing.protocol.metrics.PrometheusTextParser;
import org.junit.jupiter.api.Test;

class MetricsExtractorTest {

    private static EngineConfig engine(String name) {
        return CoreMetricsExtractor.builtIn().engines().get(name);
    }

    @Test
    void readsVllmSignals() throws Exception {
        EndpointMetrics m = MetricsExtractor.extract(PrometheusTextParser.parse("""
                vllm:num_requests_waiting{engine="0",model_name="m"} 4.0
                vllm:num_requests_running{engine="0",model_name="m"} 2.0
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25
                vllm:cache_config_info{block_size="16",num_gpu_blocks="21845",engine="0"} 1.0
                vllm:lora_requests_info{max_lora="2",running_lora_adapters="a,b",waiting_lora_adapters=""} 1.7e9
                vllm:lora_requests_info{max_lora="2",running_lora_adapters="c",waiting_lora_adapters="d"} 1.6e9
                """), engine("vllm"), 42);
        assertThat(m.waiting()).isEqualTo(4);
        assertThat(m.running()).isEqualTo(2);
        assertThat(m.kvCacheUsage()).isEqualTo(0.25);
        assertThat(m.blockSize()).isEqualTo(16);
        assertThat(m.numGpuBlocks()).isEqualTo(21845);
        assertThat(m.activeModels()).containsExactlyInAnyOrder("a", "b");
        assertThat(m.waitingModels()).isEmpty();
        assertThat(m.maxActiveModels()).isEqualTo(2);
        assertThat(m.updatedNanos()).isEqualTo(42);
    }

    @Test
    void oldKvNameIsAFallbackAndMissingValuesStayUnknown() throws Exception {
        EndpointMetrics m = MetricsExtractor.extract(PrometheusTextParser.parse(
                "vllm:gpu_cache_usage_perc{model_name=\"m\"} 0.5\n"), engine("vllm"), 1);
        assertThat(m.kvCacheUsage()).isEqualTo(0.5);
        assertThat(m.waiting()).isEqualTo(-1);
        assertThat(m.blockSize()).isEqualTo(-1);
        assertThat(m.kvCapacityTokens()).isEqualTo(-1);
        assertThat(MetricsExtractor.reads(CoreMetricsExtractor.builtIn()).test("vllm:gpu_cache_usage_perc")).isTrue();
        assertThat(MetricsExtractor.extract(PrometheusTextParser.parse("sglang:gpu_cache_usage_perc 0.5\n"
                + "vllm:gpu_cache_usage_perc 0.5\n"), engine("sglang"), 1).kvCacheUsage()).isNaN();
    }

    @Test
    void sglangNames() throws Exception {
        EndpointMetrics m = MetricsExtractor.extract(PrometheusTextParser.parse("""
                sglang:num_queue_reqs 3
                sglang:token_usage 0.75
                sglang:cache_config_info{page_size="1",num_pages="5000"} 1
                """), engine("sglang"), 1);
        assertThat(m.waiting()).isEqualTo(3);
        assertThat(m.kvCacheUsage()).isEqualTo(0.75);
        assertThat(m.numGpuBlocks()).isEqualTo(5000);
    }

    @Test
    void trtllmGeometryComesFromGaugesAndLabelledSpecsSelectTheirSeries() throws Exception {
        EndpointMetrics m = MetricsExtractor.extract(PrometheusTextParser.parse("""
                nv_trt_llm_request_metrics{request_type="waiting"} 7
                nv_trt_llm_request_metrics{request_type="scheduled"} 3
                nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="fraction"} 0.4
                nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="tokens_per"} 32
                nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max"} 9000
                """), engine("triton-tensorrt-llm"), 1);
        assertThat(m.waiting()).isEqualTo(7);
        assertThat(m.running()).isEqualTo(3);
        assertThat(m.kvCacheUsage()).isEqualTo(0.4);
        assertThat(m.blockSize()).isEqualTo(32);
        assertThat(m.numGpuBlocks()).isEqualTo(9000);
    }
}
