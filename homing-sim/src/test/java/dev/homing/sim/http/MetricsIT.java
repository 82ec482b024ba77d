package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.Preset;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} against vLLM's list (vllm-wire-formats.md §5): names, types, labels, buckets, and promtool. */
class MetricsIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$", Pattern.MULTILINE);
    private static final Map<String, String> VLLM = new LinkedHashMap<>();

    static {
        for (String g : List.of("vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
                "vllm:cache_config_info", "vllm:lora_requests_info")) {
            VLLM.put(g, "gauge");
        }
        for (String c : List.of("vllm:prefix_cache_queries", "vllm:prefix_cache_hits", "vllm:prompt_tokens",
                "vllm:generation_tokens", "vllm:num_preemptions", "vllm:request_success")) {
            VLLM.put(c, "counter");
        }
        for (String h : List.of("vllm:time_to_first_token_seconds", "vllm:time_per_output_token_seconds",
                "vllm:inter_token_latency_seconds", "vllm:request_time_per_output_token_seconds",
                "vllm:e2e_request_latency_seconds", "vllm:request_queue_time_seconds",
                "vllm:request_inference_time_seconds", "vllm:request_prefill_time_seconds",
                "vllm:request_decode_time_seconds", "vllm:request_prompt_tokens", "vllm:request_generation_tokens",
                "vllm:request_params_max_tokens", "vllm:request_max_num_generation_tokens", "vllm:request_params_n",
                "vllm:iteration_tokens_total")) {
            VLLM.put(h, "histogram");
        }
    }

    private SimPod pod;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.close();
        }
    }

    @Test
    void everyVllmMetricWithItsTypeLabelsAndBuckets(@TempDir Path dir) throws Exception {
        pod = SimPod.start(SimPodConfig.builder().model(MODEL).servedModelNames(List.of("qwen")).podName("pod-a")
                .engine(Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 2_000_000, 0))
                        .withMaxLoras(1))
                .numGpuBlocksOverride(21_845).build());
        PodClient http = new PodClient(pod.baseUrl());
        http.postJson("/v1/completions", "{\"model\":\"qwen\",\"prompt\":\"Hello there\",\"max_tokens\":3,"
                + "\"ignore_eos\":true,\"n\":2}");
        String text = http.get("/metrics").body();

        Map<String, String> types = new LinkedHashMap<>();
        for (Matcher m = TYPE.matcher(text); m.find(); ) {
            types.put(m.group(1).replaceFirst("_total$", ""), m.group(2));
        }
        Map<String, String> expected = VLLM.entrySet().stream().collect(Collectors.toMap(
                e -> e.getKey().replaceFirst("_total$", ""), Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        assertThat(types).containsExactlyInAnyOrderEntriesOf(expected);

        String labels = "{engine=\"0\",model_name=\"qwen\"}";
        assertThat(text).contains(
                "vllm:request_success_total{engine=\"0\",finished_reason=\"length\",model_name=\"qwen\"} 2.0",
                "vllm:request_success_total{engine=\"0\",finished_reason=\"stop\",model_name=\"qwen\"} 0.0",
                "vllm:request_success_total{engine=\"0\",finished_reason=\"abort\",model_name=\"qwen\"} 0.0",
                "vllm:generation_tokens_total" + labels + " 6.0",
                "vllm:time_to_first_token_seconds_count" + labels + " 2",
                "vllm:inter_token_latency_seconds_count" + labels + " 4",
                "vllm:request_queue_time_seconds_count" + labels + " 2",
                "vllm:request_prefill_time_seconds_count" + labels + " 2",
                "vllm:request_decode_time_seconds_count" + labels + " 2",
                // n and the longest answer once per HTTP request, as vLLM's parent request observes them
                "vllm:request_params_n_bucket{engine=\"0\",model_name=\"qwen\",le=\"1.0\"} 0",
                "vllm:request_params_n_bucket{engine=\"0\",model_name=\"qwen\",le=\"2.0\"} 1",
                "vllm:request_params_n_sum" + labels + " 2.0",
                "vllm:request_max_num_generation_tokens_count" + labels + " 1",
                "vllm:request_max_num_generation_tokens_sum" + labels + " 3.0",
                "vllm:request_generation_tokens_count" + labels + " 2",
                "vllm:request_params_max_tokens_sum" + labels + " 6.0",
                "vllm:lora_requests_info{max_lora=\"1\",running_lora_adapters=\"\",waiting_lora_adapters=\"\"}");
        assertThat(buckets(text, "vllm:time_to_first_token_seconds")).containsExactly(0.001, 0.005, 0.01, 0.02, 0.04,
                0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0);
        assertThat(buckets(text, "vllm:inter_token_latency_seconds")).containsExactly(0.01, 0.025, 0.05, 0.075, 0.1,
                0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0);
        assertThat(buckets(text, "vllm:e2e_request_latency_seconds")).containsExactly(0.3, 0.5, 0.8, 1.0, 1.5, 2.0,
                2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0);
        assertThat(buckets(text, "vllm:request_prompt_tokens")).containsExactly(1.0, 2.0, 5.0, 10.0, 20.0, 50.0,
                100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10000.0, 20000.0);
        assertThat(buckets(text, "vllm:iteration_tokens_total")).containsExactly(1.0, 8.0, 16.0, 32.0, 64.0, 128.0,
                256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0);
        assertThat(buckets(text, "vllm:request_params_n")).containsExactly(1.0, 2.0, 5.0, 10.0, 20.0);

        // Every series but the two info gauges carries exactly model_name and engine (and le, finished_reason).
        for (String line : text.lines().filter(l -> l.startsWith("vllm:")).toList()) {
            if (line.startsWith("vllm:cache_config_info") || line.startsWith("vllm:lora_requests_info")) {
                continue;
            }
            String names = line.substring(line.indexOf('{') + 1, line.indexOf('}')).replaceAll("=\"[^\"]*\"", "");
            assertThat(Arrays.stream(names.split(",")).filter(n -> !n.equals("le") && !n.equals("finished_reason")))
                    .as(line).containsExactly("engine", "model_name");
        }
        assertThat(text).containsPattern("vllm:cache_config_info\\{block_size=\"16\",cache_dtype=\"auto\",.*"
                + "enable_prefix_caching=\"True\",engine=\"0\",.*num_gpu_blocks=\"21845\",num_gpu_blocks_override="
                + "\"21845\",prefix_caching_hash_algo=\"sha256_cbor\".*} 1\\.0");

        Promtool.assertOnlyVllmNamingComplaints(text, dir);
    }

    @Test
    void eachPromptOfABatchIsARequestWithNChoices() throws Exception {
        pod = SimPod.start(SimPodConfig.builder().model(MODEL).servedModelNames(List.of("qwen")).podName("pod-a")
                .engine(Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 2_000_000, 0)))
                .build());
        PodClient http = new PodClient(pod.baseUrl());
        assertThat(http.postJson("/v1/completions", "{\"model\":\"qwen\",\"prompt\":[\"Hello there\",\"Good day\"],"
                + "\"max_tokens\":4,\"ignore_eos\":true,\"n\":3}").get("choices")).hasSize(6);
        String text = http.get("/metrics").body();
        String labels = "{engine=\"0\",model_name=\"qwen\"}";
        assertThat(text).contains(
                "vllm:request_generation_tokens_count" + labels + " 6",
                "vllm:request_params_max_tokens_count" + labels + " 6",
                "vllm:request_params_n_count" + labels + " 2",
                "vllm:request_params_n_sum" + labels + " 6.0",
                "vllm:request_max_num_generation_tokens_count" + labels + " 2",
                "vllm:request_max_num_generation_tokens_sum" + labels + " 8.0");
    }

    private static List<Double> buckets(String text, String histogram) {
        Pattern le = Pattern.compile("^" + Pattern.quote(histogram) + "_bucket\\{[^}]*le=\"([^\"]+)\"}",
                Pattern.MULTILINE);
        return le.matcher(text).results().map(m -> m.group(1)).filter(v -> !v.equals("+Inf"))
                .map(Double::parseDouble).toList();
    }
}
