package dev.homing.sim.kvevents;

import static dev.homing.sim.http.PodClient.quote;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.kvevents.KvEventFormat;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.LoraModule;
import dev.homing.sim.http.PodClient;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The proof that the pod's KV events are vLLM's: a subscriber written in Python with Debian's pyzmq, msgpack and
 * cbor2 (no code of ours) receives them live, decodes them by vLLM's field lists in both encodings, finds every byte
 * in msgpack's shortest form, recomputes each block hash from the tokens {@code /tokenize} returns with vLLM's
 * {@code sha256_cbor} rule (PYTHONHASHSEED set, with a cache salt, with a LoRA adapter), and replays the whole history
 * from sequence 0 up to the end marker. A bug shared by our encoder and decoder cannot pass here.
 */
class KvEventsPythonIT {

    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";
    private static final String TOPIC = "kv@pod-a@" + MODEL;
    private static final String SEED = "42";
    private static final int BLOCK = 16;
    private static final Duration WAIT = Duration.ofSeconds(15);

    @ParameterizedTest(name = "{0} events, {1} hashes, python {2}")
    @CsvSource({"ARRAY, int, binds", "MAP, int, connects", "ARRAY, bytes, connects", "MAP, bytes, binds"})
    void pythonDecodesVerifiesAndReplaysTheEvents(KvEventFormat format, String hashForm, String pythonSide,
            @TempDir Path dir) throws Exception {
        boolean intHashes = hashForm.equals("int");
        // Eleven usable blocks of 16 tokens: a few requests evict, so BlockRemoved shows up too.
        EngineConfig engine = Preset.CPU_QWEN2_5_0_5B.engine().withNumGpuBlocks(12).withHashSeed(SEED).withMaxLoras(1)
                .withCost(CostModel.simple(0, 10_000, 1_000_000, 0));
        SimPodConfig.Builder pod = SimPodConfig.builder().engine(engine).model(MODEL).podName("pod-a")
                .loraModules(List.of(new LoraModule("sql-lora", "/adapters/sql", null)));
        if (pythonSide.equals("binds")) {
            // vLLM's centralized mode: the subscriber binds, the pod connects to it.
            try (PythonSubscriber python = PythonSubscriber.start(dir, true, null, "kv@")) {
                int port = python.port();
                python.awaitReady();
                try (SimPod p = SimPod.start(pod.kvEvents(events("tcp://127.0.0.1:" + port, format, intHashes))
                        .build())) {
                    assertThat(p.kvEventsEndpoint()).isEqualTo("tcp://127.0.0.1:" + port);
                    check(python, p, format, intHashes);
                }
            }
        } else {
            // vLLM's default: the pod binds (a wildcard port here) and the subscriber dials it.
            try (SimPod p = SimPod.start(pod.kvEvents(events("tcp://127.0.0.1:*", format, intHashes)).build());
                    PythonSubscriber python = PythonSubscriber.start(dir, false, p.kvEventsEndpoint(), "kv@")) {
                python.awaitReady();
                check(python, p, format, intHashes);
            }
        }
    }

    private static KvEventsConfig events(String endpoint, KvEventFormat format, boolean intHashes) {
        return KvEventsConfig.parse("""
                {"enable_kv_cache_events": true, "publisher": "zmq", "endpoint": %s,
                 "replay_endpoint": "tcp://127.0.0.1:*", "topic": %s}""".formatted(quote(endpoint), quote(TOPIC)))
                .withFormat(format).withIntBlockHashes(intHashes);
    }

    private static void check(PythonSubscriber python, SimPod pod, KvEventFormat format, boolean intHashes) {
        PodClient http = new PodClient(pod.baseUrl());
        SimTokenizer tok = SimTokenizer.builtin();
        SplittableRandom rng = new SplittableRandom(5);

        // PUB drops everything until the subscription arrives; send small requests until one gets through live.
        JsonNode firstLive = null;
        for (int i = 0; i < 60 && firstLive == null; i++) {
            http.postJson("/v1/completions", completion(MODEL, tok.randomText(40, rng), null));
            firstLive = python.poll(n -> n.has("live"), Duration.ofMillis(300));
        }
        assertThat(firstLive).as("a live message reached the Python subscriber").isNotNull();

        // A salted prompt: the salt goes into the first block's hash and extra keys only.
        String prompt = tok.randomText(70, rng);
        int[] tokens = ints(http.postJson("/tokenize", "{\"prompt\":" + quote(prompt) + "}").get("tokens"));
        int blocks = tokens.length / BLOCK;
        http.postJson("/v1/completions", completion(MODEL, prompt, "tenant-a"));
        List<JsonNode> salted = storedBlocks(python, tokens, blocks, null, "tenant-a");
        List<JsonNode> expected = hashes(python, tokens, blocks, null, "tenant-a");
        assertBlocks(salted, expected, intHashes);
        for (JsonNode e : salted) {
            assertShape(e, format);
            assertThat(e.get("lora_name").isNull()).isTrue();
            assertThat(e.get("lora_id").isNull()).isTrue();
        }
        assertThat(salted.getFirst().get("parent_block_hash").isNull()).isTrue();
        assertThat(salted.getFirst().at("/extra_keys/0/0").asText()).isEqualTo("tenant-a");
        assertThat(flatExtraKeys(salted).subList(1, blocks)).allSatisfy(k -> assertThat(k.isNull()).isTrue());

        // The same prompt through a LoRA adapter: its name keys every block.
        http.postJson("/v1/completions", completion("sql-lora", prompt, null));
        List<JsonNode> lora = storedBlocks(python, tokens, blocks, "sql-lora", "sql-lora");
        assertBlocks(lora, hashes(python, tokens, blocks, "sql-lora", null), intHashes);
        for (JsonNode e : lora) {
            assertShape(e, format);
            assertThat(e.get("lora_name").asText()).isEqualTo("sql-lora");
            assertThat(e.get("lora_id").asInt()).isEqualTo(1);
        }
        assertThat(flatExtraKeys(lora)).allSatisfy(k -> assertThat(k.toString()).isEqualTo("[\"sql-lora\"]"));

        // Reset: AllBlocksCleared, in its own batch, at once.
        assertThat(http.post("/reset_prefix_cache", "").statusCode()).isEqualTo(200);
        JsonNode cleared = python.await(n -> n.has("live") && n.at("/live/batch/events/0/type").asText()
                .equals("AllBlocksCleared"), WAIT).at("/live/batch/events/0");
        if (format == KvEventFormat.ARRAY) {
            assertThat(cleared.get("length").asInt()).isEqualTo(1);
        } else {
            assertThat(cleared.get("keys")).hasSize(1);
        }

        // Every live message: three frames, our topic, a float64 ts, rank 0, shortest-form bytes.
        List<JsonNode> live = python.seen().stream().filter(n -> n.has("live")).map(n -> n.get("live")).toList();
        assertThat(live).allSatisfy(l -> {
            assertThat(l.get("topic").asText()).isEqualTo(TOPIC);
            assertBatch(l.get("batch"));
        });

        // Replay from 0: every batch ever published, in order, the live ones byte for byte, then the end marker.
        python.send(Map.of("cmd", "replay", "endpoint", pod.kvEventsReplayEndpoint(), "start", 0));
        JsonNode replay = python.await(n -> n.has("replay"), WAIT);
        assertThat(replay.get("frames_ok").asBoolean()).isTrue();
        assertThat(replay.get("end_ok").asBoolean()).isTrue();
        List<Long> seqs = new ArrayList<>();
        Set<String> stored = new HashSet<>();
        List<String> removed = new ArrayList<>();
        for (JsonNode b : replay.get("replay")) {
            seqs.add(b.get("seq").asLong());
            assertBatch(b.get("batch"));
            if (!b.get("matches_live").isNull()) {
                assertThat(b.get("matches_live").asBoolean()).as("replayed payload = live payload").isTrue();
            }
            for (JsonNode e : b.at("/batch/events")) {
                switch (e.get("type").asText()) {
                    case "BlockStored" -> e.get("block_hashes").forEach(h -> stored.add(h.toString()));
                    case "BlockRemoved" -> {
                        assertShapeRemoved(e, format);
                        assertThat(e.get("block_hashes")).hasSize(1);
                        removed.add(e.at("/block_hashes/0").toString());
                    }
                    default -> assertThat(e.get("type").asText()).isEqualTo("AllBlocksCleared");
                }
            }
        }
        long published = pod.kvEventBatchesPublished();
        assertThat(seqs).hasSize((int) published);
        for (int i = 0; i < seqs.size(); i++) {
            assertThat(seqs.get(i)).isEqualTo(i);
        }
        assertThat(live.stream().map(l -> l.get("seq").asLong())).isSubsetOf(seqs);
        assertThat(removed).as("evictions happened").isNotEmpty();
        assertThat(stored).containsAll(removed);
        assertThat(pod.kvEventBatchesDropped()).isZero();
    }

    private static String completion(String model, String prompt, String salt) {
        return "{\"model\":" + quote(model) + ",\"prompt\":" + quote(prompt) + ",\"max_tokens\":1"
                + (salt == null ? "" : ",\"cache_salt\":" + quote(salt)) + "}";
    }

    /**
     * The live BlockStored events of one request: its blocks of {@code tokens} stored under {@code lora} (or the base
     * model), the first block carrying {@code firstKey} as its extra key.
     */
    private static List<JsonNode> storedBlocks(PythonSubscriber python, int[] tokens, int blocks, String lora,
            String firstKey) {
        List<JsonNode> out = new ArrayList<>();
        int got = 0;
        while (got < blocks) {
            int from = got * BLOCK;
            Predicate<JsonNode> wanted = e -> e.get("type").asText().equals("BlockStored")
                    && e.at("/token_ids/0").asInt() == tokens[from]
                    && (lora == null ? e.get("lora_name").isNull() : lora.equals(e.get("lora_name").asText()))
                    && (from > 0 || firstKey.equals(e.at("/extra_keys/0/0").asText()));
            JsonNode line = python.await(n -> n.has("live") && find(n, wanted) != null, WAIT);
            JsonNode e = find(line, wanted);
            out.add(e);
            got += e.get("block_hashes").size();
        }
        assertThat(got).isEqualTo(blocks);
        int[] published = out.stream().flatMap(e -> StreamSupport.stream(e.get("token_ids").spliterator(), false))
                .mapToInt(JsonNode::asInt).toArray();
        assertThat(published).containsExactly(Arrays.copyOf(tokens, blocks * BLOCK));
        return out;
    }

    private static JsonNode find(JsonNode line, Predicate<JsonNode> wanted) {
        for (JsonNode e : line.at("/live/batch/events")) {
            if (wanted.test(e)) {
                return e;
            }
        }
        return null;
    }

    private static List<JsonNode> hashes(PythonSubscriber python, int[] tokens, int blocks, String lora,
            String salt) {
        Map<String, Object> cmd = new HashMap<>();
        cmd.put("cmd", "hash");
        cmd.put("seed", SEED);
        cmd.put("tokens", Arrays.copyOf(tokens, blocks * BLOCK));
        cmd.put("block_size", BLOCK);
        cmd.put("lora", lora);
        cmd.put("salt", salt);
        python.send(cmd);
        List<JsonNode> out = new ArrayList<>();
        python.await(n -> n.has("hashes"), WAIT).get("hashes").forEach(out::add);
        return out;
    }

    private static void assertBlocks(List<JsonNode> events, List<JsonNode> expected, boolean intHashes) {
        List<JsonNode> published = new ArrayList<>();
        for (JsonNode e : events) {
            e.get("block_hashes").forEach(published::add);
        }
        assertThat(published).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            JsonNode want = expected.get(i);
            if (intHashes) {
                assertThat(published.get(i).get("int").asText()).isEqualTo(want.get("low64").asText());
            } else {
                assertThat(published.get(i).get("bytes").asText()).isEqualTo(want.get("hex").asText());
            }
        }
        // Each event after the first chains on the hash before it.
        for (int i = 1; i < events.size(); i++) {
            int before = 0;
            for (int j = 0; j < i; j++) {
                before += events.get(j).get("block_hashes").size();
            }
            assertThat(events.get(i).get("parent_block_hash")).isEqualTo(published.get(before - 1));
        }
    }

    private static void assertShape(JsonNode e, KvEventFormat format) {
        assertThat(e.get("block_size").asInt()).isEqualTo(BLOCK);
        assertThat(e.get("medium").asText()).isEqualTo("GPU");
        assertThat(e.get("group_idx").asInt()).isZero();
        assertThat(e.get("kv_cache_spec_kind").asText()).isEqualTo("full_attention");
        assertThat(e.get("extra_keys")).hasSize(e.get("block_hashes").size());
        if (format == KvEventFormat.ARRAY) {
            assertThat(e.get("form").asText()).isEqualTo("array");
            assertThat(e.get("length").asInt()).isEqualTo(12);
            assertThat(e.get("kv_cache_spec_sliding_window").isNull()).isTrue();
        } else {
            assertThat(e.get("form").asText()).isEqualTo("map");
            assertThat(e.get("keys")).extracting(JsonNode::asText).containsExactly("type", "block_hashes",
                    "parent_block_hash", "token_ids", "block_size", "lora_id", "medium", "lora_name", "extra_keys",
                    "group_idx", "kv_cache_spec_kind");
        }
    }

    private static void assertShapeRemoved(JsonNode e, KvEventFormat format) {
        assertThat(e.get("medium").asText()).isEqualTo("GPU");
        if (format == KvEventFormat.ARRAY) {
            assertThat(e.get("length").asInt()).isEqualTo(4);
        } else {
            assertThat(e.get("keys")).extracting(JsonNode::asText).containsExactly("type", "block_hashes", "medium",
                    "group_idx");
        }
    }

    private static void assertBatch(JsonNode batch) {
        assertThat(batch.get("outer").asText()).isEqualTo("list");
        assertThat(batch.get("ts_is_float").asBoolean()).isTrue();
        assertThat(batch.get("ts").asDouble()).isGreaterThan(1.7e9);
        assertThat(batch.get("rank").asInt()).isZero();
        assertThat(batch.get("repack_equal").asBoolean()).as("shortest-form msgpack").isTrue();
        assertThat(batch.get("events")).isNotEmpty();
    }

    private static List<JsonNode> flatExtraKeys(List<JsonNode> events) {
        List<JsonNode> out = new ArrayList<>();
        events.forEach(e -> e.get("extra_keys").forEach(out::add));
        return out;
    }

    private static int[] ints(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asInt();
        }
        return out;
    }
}
