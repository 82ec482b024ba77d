package dev.homing.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.sim.engine.Preset;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code homing up --precise} and {@code --pd}: the built-in configs, with nothing written to disk. */
class LocalClusterIT {

    @Test
    void preciseClusterRunsTheBuiltInPreciseConfigFedByEveryPod() throws Exception {
        LocalCluster.Options options = new LocalCluster.Options(2, "Qwen/Qwen2.5-0.5B-Instruct",
                Preset.byName("cpu-qwen2.5-0.5b"), "127.0.0.1", 0, 0, 0, 3, null, true, null);
        try (LocalCluster cluster = LocalCluster.start(options)) {
            assertThat(cluster.precise()).isTrue();
            assertThat(cluster.router().options().configFile()).isNull();
            assertThat(cluster.router().config().pluginsOf(KvEventFeed.class)).hasSize(1);
            assertThat(cluster.router().kvEvents().producers()).containsExactly("precise-prefix-cache-producer");
            // start returned only once every pod's events were being taken
            cluster.pods().forEach(p -> assertThat(cluster.router().kvEvents().batchesTaken(p.name())).isPositive());
        }
    }

    @Test
    void pdClusterLabelsItsPodsAndTellsTheDecodePodWhereToPrefill() throws Exception {
        LocalCluster.Options options = new LocalCluster.Options(3, "Qwen/Qwen2.5-0.5B-Instruct",
                Preset.byName("cpu-qwen2.5-0.5b"), "127.0.0.1", 0, 0, 0, 4, null, false, null, new PdSplit(1, 2), null);
        try (LocalCluster cluster = LocalCluster.start(options);
             HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            assertThat(cluster.pods()).extracting(LocalCluster.Pod::role).containsExactly("prefill", "decode", "decode");
            assertThat(cluster.pods().get(0).name()).startsWith("qwen2-5-0-5b-instruct-prefill-");
            assertThat(cluster.pods().get(1).name()).startsWith("qwen2-5-0-5b-instruct-decode-");
            assertThat(cluster.router().pool().snapshot().endpoints())
                    .extracting(e -> e.endpoint().label("llm-d.ai/role")).containsExactly("prefill", "decode", "decode");
            assertThat(cluster.router().config().config().source()).isEqualTo(BuiltInConfig.PD.resource());

            LocalCluster.Pod prefill = cluster.pods().get(0);
            String longPrompt = "Tell me everything about the history of distributed caching, in detail. ".repeat(6);
            Map<String, String> seen = complete(http, cluster, longPrompt);
            assertThat(seen).containsEntry("x-prefiller-host-port", prefill.address());
            assertThat(complete(http, cluster, "Hello")).doesNotContainKey("x-prefiller-host-port");
            assertThat(prefill.server().recentRequestHeaders()).isEmpty();
        }
    }

    /** Sends a completion, checks a decode pod served it, and returns the headers that pod received. */
    private static Map<String, String> complete(HttpClient http, LocalCluster cluster, String prompt) throws Exception {
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"Qwen/Qwen2.5-0.5B-Instruct\",\"prompt\":\""
                        + prompt + "\",\"max_tokens\":3}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        String name = res.headers().firstValue("x-homing-pod").orElseThrow();
        List<LocalCluster.Pod> decode = cluster.pods().stream().filter(p -> "decode".equals(p.role())).toList();
        assertThat(decode).extracting(LocalCluster.Pod::name).contains(name);
        return decode.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow().server()
                .lastRequestHeaders();
    }
}
