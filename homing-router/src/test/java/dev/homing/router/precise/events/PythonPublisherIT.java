package dev.homing.router.precise.events;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.protocol.metrics.MetricsText;
import dev.homing.protocol.metrics.Sample;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.FixedTokens;
import dev.homing.router.fixtures.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router's subscriber against a publisher written in Python with Debian's pyzmq and msgpack (no code of ours on
 * the sending side): vLLM's legacy arrays and tagged maps, batches as arrays and as maps, hashes as unsigned 64-bit
 * integers (also at and above 2^63), negative ones and 32-byte digests, events with fewer and more fields than ours,
 * an unknown event type, malformed messages, a gap the pod's replay socket fills, a gap without one, and a restart.
 * The pods are simulated vLLM pods that publish nothing themselves; the Python publishers speak for them. The index
 * is read through {@code POST /debug/schedule}, the counters through the admin port's metrics.
 */
class PythonPublisherIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LIFETIME = Duration.ofSeconds(150);
    private static final String PRODUCER = "precise-prefix-cache-producer";
    /** Prompts and their blocks of 16 tokens. */
    private static final Map<String, Integer> PROMPTS = new LinkedHashMap<>();

    static {
        PROMPTS.put("alpha", 4);
        PROMPTS.put("beta", 4);
        PROMPTS.put("gamma", 3);
        PROMPTS.put("delta", 4);
        PROMPTS.put("epsilon", 3);
        PROMPTS.put("zeta", 2);
        PROMPTS.put("eta", 3);
        PROMPTS.put("theta", 2);
    }

    @TempDir
    Path dir;

    /** Distinct tokens per prompt: prompt k's token i is 1000 (k + 1) + i. */
    private static Map<String, int[]> tokens() {
        Map<String, int[]> out = new HashMap<>();
        int k = 0;
        for (Map.Entry<String, Integer> p : PROMPTS.entrySet()) {
            int[] t = new int[p.getValue() * 16 + 5]; // a partial last block, never hashed
            for (int i = 0; i < t.length; i++) {
                t[i] = 1000 * (k + 1) + i;
            }
            out.put(p.getKey(), t);
            k++;
        }
        return out;
    }

    @Test
    void dialedPublishersDriveTheIndexThroughEncodingsGapsAndARestart() throws Exception {
        try (PythonPublisher py = PythonPublisher.start(dir, 7, LIFETIME)) {
            JsonNode a = py.call(Map.of("cmd", "open", "pub", "a", "mode", "bind", "endpoint", "tcp://127.0.0.1:*",
                    "replay", true), "opened");
            JsonNode b = py.call(Map.of("cmd", "open", "pub", "b", "mode", "bind", "endpoint", "tcp://127.0.0.1:*",
                    "replay", false), "opened");
            Path config = Files.writeString(dir.resolve("precise.yaml"), DefaultConfig.preciseText());
            try (TestCluster cluster = TestCluster.start(2, pod -> pod, (options, pods) -> options.with(o -> {
                o.configFile = config;
                o.tokenSource = new FixedTokens(tokens());
                o.endpoints = List.of(
                        labelled(o.endpoints.get(0), a.path("endpoint").asText(), a.path("replay").asText()),
                        labelled(o.endpoints.get(1), b.path("endpoint").asText(), null));
            }))) {
                registerPrompts(py);
                py.call(Map.of("cmd", "await_subscriber", "pub", "a"), "subscribed");
                py.call(Map.of("cmd", "await_subscriber", "pub", "b"), "subscribed");
                String ta = "kv@pod-0@" + MODEL;
                String tb = "kv@pod-1@" + MODEL;

                // pod-0: legacy arrays with integer hashes; the chain crosses batches through a parent >= 2^63.
                JsonNode first = batch(py, "a", ta, 0, "array", true, stored("alpha", 0, 2, "array", "u64high", "all"));
                assertThat(first.path("bytes").asText()).as("a batch as a 3-array, its hash as uint64 'cf'")
                        .startsWith("93cb").contains("cf");
                batch(py, "a", ta, 1, "array", true, stored("alpha", 2, 4, "array", "u64", "fewer"));
                JsonNode asMap = batch(py, "a", ta, 2, "map", true, stored("gamma", 0, 3, "array", "i64neg", "more"),
                        removed("gamma", 2, 3, "array"));
                assertThat(asMap.path("bytes").asText()).as("a batch as a map").startsWith("83");
                // pod-1: tagged maps with 32-byte digests, defaulted fields left out or extra ones added.
                batch(py, "b", tb, 0, "array", true, stored("beta", 0, 4, "map", "bytes", "all"));
                batch(py, "b", tb, 1, "map", true, removed("beta", 3, 4, "map"), unknown("map"),
                        stored("epsilon", 0, 3, "map", "bytes", "more"));
                raw(py, "b", tb, 2, "c1ffee");      // a payload that is not msgpack: uses up sequence 2
                raw(py, "b", tb, -1, null);         // two frames only
                batch(py, "b", tb, 3, "array", true, removed("epsilon", 2, 3, "map"), unknown("array"));
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(matched(cluster, "alpha")).isEqualTo(held(4, 0));
                    assertThat(matched(cluster, "gamma")).isEqualTo(held(2, 0));
                    assertThat(matched(cluster, "beta")).isEqualTo(held(0, 3));
                    assertThat(matched(cluster, "epsilon")).isEqualTo(held(0, 2));
                });

                // A gap on pod-0, whose replay socket still has the batch the router missed.
                batch(py, "a", ta, 3, "array", false, stored("delta", 0, 4, "array", "u64", "all"));
                batch(py, "a", ta, 4, "array", true, stored("zeta", 0, 2, "map", "u64high", "all"));
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(matched(cluster, "delta")).isEqualTo(held(4, 0));
                    assertThat(matched(cluster, "zeta")).isEqualTo(held(2, 0));
                });
                assertThat(matched(cluster, "alpha")).as("nothing was dropped").isEqualTo(held(4, 0));
                assertThat(py.await(n -> n.has("replayed"), WAIT).path("from").asLong())
                        .as("the router asked pod-0's replay socket from the first batch it missed").isEqualTo(3);

                // A gap on pod-1, which has no replay socket: its entries are dropped and rebuilt from what follows.
                batch(py, "b", tb, 5, "array", true, stored("eta", 0, 3, "array", "bytes", "all"));
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(matched(cluster, "eta")).isEqualTo(held(0, 3));
                    assertThat(matched(cluster, "beta")).isEqualTo(held(0, 0));
                    assertThat(matched(cluster, "epsilon")).isEqualTo(held(0, 0));
                });

                // pod-0's engine restarts: new sockets, sequence from 0 again; what it held is gone.
                py.call(Map.of("cmd", "restart", "pub", "a"), "restarted");
                py.call(Map.of("cmd", "await_subscriber", "pub", "a"), "subscribed");
                batch(py, "a", ta, 0, "array", true, stored("theta", 0, 2, "array", "u64", "all"));
                batch(py, "a", ta, 1, "map", true, stored("alpha", 0, 2, "map", "u64", "all"));
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(matched(cluster, "theta")).isEqualTo(held(2, 0));
                    assertThat(matched(cluster, "alpha")).isEqualTo(held(2, 0));
                    assertThat(matched(cluster, "gamma")).isEqualTo(held(0, 0));
                    assertThat(matched(cluster, "delta")).isEqualTo(held(0, 0));
                    assertThat(matched(cluster, "zeta")).isEqualTo(held(0, 0));
                });
                assertThat(matched(cluster, "eta")).isEqualTo(held(0, 3));

                // an index worker counts a batch's events just after applying them: the index can be seen first
                await().atMost(WAIT).untilAsserted(() -> {
                    MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
                    assertThat(value(m, "homing_kv_events_gaps_total", "pod", "pod-0")).isEqualTo(1);
                    assertThat(value(m, "homing_kv_events_gaps_total", "pod", "pod-1")).isEqualTo(1);
                    assertThat(value(m, "homing_kv_events_batches_lost_total", "pod", "pod-0")).isZero();
                    assertThat(value(m, "homing_kv_events_batches_lost_total", "pod", "pod-1")).isEqualTo(1);
                    assertThat(value(m, "homing_kv_events_replays_total", "result", "complete")).isEqualTo(1);
                    assertThat(value(m, "homing_kv_events_replays_total", "result", "failed")).isZero();
                    assertThat(value(m, "homing_kv_events_restarts_total", "pod", "pod-0")).isEqualTo(1);
                    assertThat(value(m, "homing_kv_events_restarts_total", "pod", "pod-1")).isZero();
                    assertThat(value(m, "homing_kv_events_malformed_total", "pod", "pod-1")).isEqualTo(2);
                    assertThat(value(m, "homing_kv_events_skipped_total", "reason", "unknown_type")).isEqualTo(2);
                    assertThat(value(m, "homing_kv_events_skipped_total", "reason", "unresolved")).isZero();
                    // pod-0: 4 events before the gap, 2 through it, 2 after the restart; pod-1: 1 + 2 + 1 + 1
                    assertThat(value(m, "homing_kv_events_applied_total", "pod", "pod-0")).isEqualTo(8);
                    assertThat(value(m, "homing_kv_events_applied_total", "pod", "pod-1")).isEqualTo(5);
                    assertThat(value(m, "homing_kv_events_batches_total", "pod", "pod-0")).isEqualTo(7);
                    assertThat(value(m, "homing_kv_events_batches_total", "pod", "pod-1")).isEqualTo(4);
                    // theta 2 + alpha 2 on pod-0, eta 3 on pod-1
                    assertThat(value(m, "homing_precise_index_size", "producer", PRODUCER)).isEqualTo(7);
                });
            }
        }
    }

    @Test
    void aBoundSubscriberTellsPodsApartByTheirTopics() throws Exception {
        String yaml = DefaultConfig.preciseText().replace(
                "      discoverPods: true\n      podDiscoveryConfig:\n        socketPort: 5557\n",
                "      discoverPods: false\n      zmqEndpoint: \"tcp://127.0.0.1:*\"\n");
        assertThat(yaml).contains("zmqEndpoint");
        Path config = Files.writeString(dir.resolve("central.yaml"), yaml);
        try (TestCluster cluster = TestCluster.start(2, pod -> pod, (options, pods) -> options.with(o -> {
            o.configFile = config;
            o.tokenSource = new FixedTokens(tokens());
        })); PythonPublisher py = PythonPublisher.start(dir, 11, LIFETIME)) {
            String bound = cluster.router().kvEvents().boundEndpoint(PRODUCER).orElseThrow();
            assertThat(bound).startsWith("tcp://127.0.0.1:").doesNotEndWith(":*");
            for (String pub : List.of("a", "b", "ghost")) {
                py.call(Map.of("cmd", "open", "pub", pub, "mode", "connect", "endpoint", bound), "opened");
            }
            registerPrompts(py);
            for (String pub : List.of("a", "b", "ghost")) {
                assertThat(py.call(Map.of("cmd", "await_subscriber", "pub", pub), "subscribed").path("prefix").asText())
                        .isEqualTo("kv@");
            }
            // By name, by host:port (llm-d's documented form), and a pod the pool does not have.
            String ta = "kv@pod-0@" + MODEL;
            String tb = "kv@127.0.0.1:" + cluster.pod(1).port() + "@" + MODEL;
            batch(py, "a", ta, 0, "array", true, stored("alpha", 0, 4, "array", "u64high", "all"));
            batch(py, "b", tb, 0, "map", true, stored("beta", 0, 4, "map", "bytes", "all"));
            batch(py, "ghost", "kv@ghost@" + MODEL, 0, "array", true, stored("gamma", 0, 3, "array", "u64", "all"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(matched(cluster, "alpha")).isEqualTo(held(4, 0));
                assertThat(matched(cluster, "beta")).isEqualTo(held(0, 4));
                assertThat(value(cluster.http().metrics(cluster.adminUrl("/metrics")),
                        "homing_kv_events_unknown_pod_total", null, null)).isEqualTo(1);
            });
            assertThat(matched(cluster, "gamma")).isEqualTo(held(0, 0));

            // Each pod's sequence is its own: a gap on pod-1 (no replay socket) drops pod-1's entries only.
            batch(py, "b", tb, 2, "array", true, stored("delta", 0, 4, "array", "u64", "all"));
            batch(py, "a", ta, 1, "map", true, removed("alpha", 3, 4, "map"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(matched(cluster, "delta")).isEqualTo(held(0, 4));
                assertThat(matched(cluster, "beta")).isEqualTo(held(0, 0));
                assertThat(matched(cluster, "alpha")).isEqualTo(held(3, 0));
            });
            MetricsText m = cluster.http().metrics(cluster.adminUrl("/metrics"));
            assertThat(value(m, "homing_kv_events_batches_lost_total", "pod", "pod-1")).isEqualTo(1);
            assertThat(value(m, "homing_kv_events_batches_lost_total", "pod", "pod-0")).isZero();
        }
    }

    private static Endpoint labelled(Endpoint e, String events, String replay) {
        Map<String, String> labels = new HashMap<>(e.labels());
        labels.put(PublisherAddress.EVENTS_LABEL, events);
        if (replay != null) {
            labels.put(PublisherAddress.REPLAY_LABEL, replay);
        }
        return new Endpoint(e.name(), e.host(), e.port(), labels);
    }

    private static void registerPrompts(PythonPublisher py) {
        tokens().forEach((name, t) -> py.call(Map.of("cmd", "prompt", "name", name, "tokens", t), "prompt"));
    }

    private static JsonNode batch(PythonPublisher py, String pub, String topic, long seq, String shape, boolean live,
                                  Map<?, ?>... events) {
        return py.call(Map.of("cmd", "batch", "pub", pub, "topic", topic, "seq", seq, "shape", shape, "live", live,
                "events", List.of(events)), "sent");
    }

    /** A raw message: topic, the sequence's 8 bytes (none when {@code seq} is negative) and a payload, if given. */
    private static void raw(PythonPublisher py, String pub, String topic, long seq, String payloadHex) {
        List<String> frames = new ArrayList<>();
        frames.add(HexFormat.of().formatHex(topic.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        frames.add(seq < 0 ? "00" : HexFormat.of().formatHex(KvMessage.sequenceBytes(seq)));
        if (payloadHex != null) {
            frames.add(payloadHex);
        }
        py.call(Map.of("cmd", "raw", "pub", pub, "frames", frames), "sent_raw");
    }

    private static Map<String, Object> stored(String prompt, int from, int to, String encoding, String hash,
                                              String fields) {
        return Map.of("type", "BlockStored", "prompt", prompt, "blocks", List.of(from, to), "encoding", encoding,
                "hash", hash, "fields", fields);
    }

    private static Map<String, Object> removed(String prompt, int from, int to, String encoding) {
        return Map.of("type", "BlockRemoved", "prompt", prompt, "blocks", List.of(from, to), "encoding", encoding);
    }

    private static Map<String, Object> unknown(String encoding) {
        return Map.of("type", "Unknown", "encoding", encoding);
    }

    /** Blocks of a prompt the index says each pod holds. */
    private static Map<String, Integer> matched(TestCluster cluster, String prompt) {
        JsonNode d = json(cluster.http().post(cluster.adminUrl("/debug/schedule"),
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":1}"));
        assertThat(d.path("prefix").path("totalBlocks").asInt()).as("tokens reached the precise producer")
                .isEqualTo(PROMPTS.get(prompt));
        return Decisions.matchedBlocks(d);
    }

    private static Map<String, Integer> held(int pod0, int pod1) {
        return Map.of("pod-0", pod0, "pod-1", pod1);
    }

    /** The sum of a metric's samples with a label value (every sample when {@code label} is null). */
    private static double value(MetricsText m, String name, String label, String labelValue) {
        return m.samples(name).stream().filter(s -> label == null || labelValue.equals(s.label(label)))
                .mapToDouble(Sample::value).sum();
    }
}
