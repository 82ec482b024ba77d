package dev.homing.protocol.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {

    @Test
    void parsesVllmExposition() throws Exception {
        MetricsText m = PrometheusTextParser.parse("""
                # HELP vllm:num_requests_waiting Number of requests waiting to be processed.
                # TYPE vllm:num_requests_waiting gauge
                vllm:num_requests_waiting{engine="0",model_name="Qwen/Qwen2.5-0.5B-Instruct"} 3.0
                # TYPE vllm:prompt_tokens_total counter
                vllm:prompt_tokens_total{engine="0",model_name="m"} 1.2e3
                vllm:prompt_tokens_created{engine="0",model_name="m"} 1.7e9
                vllm:cache_config_info{block_size="16",num_gpu_blocks="21845",engine="0"} 1
                vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m"} 7
                weird{a="x\\"y\\\\z\\n",} NaN 1700000000000
                """);
        assertThat(m.latest(VllmMetrics.NUM_REQUESTS_WAITING)).isEqualTo(3.0);
        assertThat(m.type("vllm:num_requests_waiting")).isEqualTo("gauge");
        assertThat(m.latest("vllm:prompt_tokens_total")).isEqualTo(1200.0);
        assertThat(m.latestSample(VllmMetrics.CACHE_CONFIG_INFO).label("num_gpu_blocks")).isEqualTo("21845");
        assertThat(m.latestSample("vllm:time_to_first_token_seconds_bucket").label("le")).isEqualTo("+Inf");
        Sample weird = m.latestSample("weird");
        assertThat(weird.label("a")).isEqualTo("x\"y\\z\n");
        assertThat(weird.value()).isNaN();
        assertThat(weird.timestampMs()).isEqualTo(1_700_000_000_000L);
        assertThat(m.latest("absent")).isNaN();
    }

    @Test
    void onlyWantedMetricsAreBuiltAndUnwantedLinesAreNotEvenRead() throws Exception {
        MetricsText m = PrometheusTextParser.parse("""
                # TYPE vllm:num_requests_waiting gauge
                vllm:num_requests_waiting{engine="0"} 3.0
                vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m"} 7
                not_wanted{broken="
                """, VllmMetrics.NUM_REQUESTS_WAITING::equals);
        assertThat(m.latest(VllmMetrics.NUM_REQUESTS_WAITING)).isEqualTo(3.0);
        assertThat(m.has("vllm:time_to_first_token_seconds_bucket")).isFalse();
        assertThat(m.size()).isEqualTo(1);
    }

    @Test
    void newestTimestampWinsAmongSeveralSeries() throws Exception {
        MetricsText m = PrometheusTextParser.parse("""
                vllm:lora_requests_info{running_lora_adapters="a"} 5 2000
                vllm:lora_requests_info{running_lora_adapters="b"} 9 1000
                """);
        assertThat(m.latestSample(VllmMetrics.LORA_REQUESTS_INFO).label("running_lora_adapters")).isEqualTo("a");
        assertThat(m.sum(VllmMetrics.LORA_REQUESTS_INFO)).isEqualTo(14);
    }

    @Test
    void openMetricsExtrasAreTolerated() throws Exception {
        MetricsText m = PrometheusTextParser.parse("a_total 1 # {trace_id=\"x\"} 1\r\n# EOF\n");
        assertThat(m.latest("a_total")).isEqualTo(1);
    }

    @Test
    void malformedLinesNameTheLine() {
        assertThatThrownBy(() -> PrometheusTextParser.parse("ok 1\nbad{a=\"x\" 1\n"))
                .isInstanceOf(MetricsFormatException.class)
                .hasMessageStartingWith("line 2:");
        assertThatThrownBy(() -> PrometheusTextParser.parse("x notanumber"))
                .hasMessageContaining("bad value");
    }
}
