package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import dev.homing.protocol.metrics.PrometheusTextParser;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.router.metrics.RouterMetrics;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceRecorderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;

    private final RouterMetrics metrics = new RouterMetrics("pool", new EndpointPool());

    private static InferenceRequest request(String body, Map<String, String> headers) {
        try {
            return new InferenceRequest("r", RequestParser.parse(ApiKind.COMPLETIONS,
                    body.getBytes(StandardCharsets.UTF_8)), headers);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request of {@code blocks} 512-token blocks, the first {@code shared} of them common to every such request. */
    private static Completed completed(long arrivalMs, int shared, int blocks, int unique, String session) {
        int[] tokens = IntStream.range(0, blocks * 512).map(i -> i < shared * 512 ? i : unique * 100_000 + i).toArray();
        return new Completed(arrivalMs * MS, request("{\"model\":\"m\",\"prompt\":[1]}",
                session == null ? Map.of() : Map.of("x-session-id", session)), "m", tokens, blocks * 512L, 10);
    }

    private static List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    private double counter(String name) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        return PrometheusTextParser.parse(out.toString(StandardCharsets.UTF_8)).samples(name).stream()
                .mapToDouble(s -> s.value()).sum();
    }

    @Test
    void writesOneLineARequestWithIdsAndSessionsNumberedInFirstSeenOrder() throws Exception {
        Path file = dir.resolve("trace.jsonl");
        TraceRecorder r = new TraceRecorder(RecordOptions.of(file, 1 << 20, 3), metrics.registry());
        r.start();
        r.offer(completed(5_000, 1, 3, 1, "alice@example.com"));
        r.offer(completed(5_250, 1, 2, 2, null));
        r.offer(completed(5_100, 3, 4, 3, "bob"));
        r.offer(completed(6_000, 3, 3, 4, "alice@example.com"));
        r.close();

        List<JsonNode> l = lines(file);
        assertThat(l).hasSize(4);
        assertThat(l.get(0).get("timestamp").asLong()).isZero();
        assertThat(l.get(1).get("timestamp").asLong()).isEqualTo(250);
        assertThat(l.get(2).get("timestamp").asLong()).isEqualTo(100);
        assertThat(l.get(3).get("timestamp").asLong()).isEqualTo(1000);
        assertThat(l.get(0).get("hash_ids").toString()).isEqualTo("[0,1,2]");
        assertThat(l.get(1).get("hash_ids").toString()).isEqualTo("[0,3]");
        assertThat(l.get(2).get("hash_ids").toString()).isEqualTo("[0,4,5,6]");
        assertThat(l.get(3).get("hash_ids").toString()).isEqualTo("[0,4,5]");
        assertThat(l.get(0).get("session_id").asText()).isEqualTo("0");
        assertThat(l.get(1).has("session_id")).isFalse();
        assertThat(l.get(2).get("session_id").asText()).isEqualTo("1");
        assertThat(l.get(3).get("session_id").asText()).isEqualTo("0");
        assertThat(Files.readString(file)).doesNotContain("alice").doesNotContain("bob");
        assertThat(l.get(2).get("input_length").asLong()).isEqualTo(2048);
        assertThat(l.get(2).get("output_length").asLong()).isEqualTo(10);
        assertThat(counter("homing_record_lines_total")).isEqualTo(4);
    }

    @Test
    void rotatesBySizeKeepsAtMostMaxFilesAndRestartsTheNumberingAndTheClock() throws Exception {
        Path file = dir.resolve("t.jsonl");
        Files.writeString(file, "left by an earlier run\n");
        TraceRecorder r = new TraceRecorder(RecordOptions.of(file, 4096, 3), metrics.registry());
        r.start();
        int n = 400;
        for (int i = 0; i < n; i++) {
            r.offer(completed(1000L * i, 1, 3, i + 1, "s" + i % 3));
        }
        r.close();

        Path f1 = dir.resolve("t.jsonl.1");
        Path f2 = dir.resolve("t.jsonl.2");
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()).sorted().toList())
                .containsExactly("t.jsonl", "t.jsonl.1", "t.jsonl.2");
        for (Path p : List.of(file, f1, f2)) {
            assertThat(Files.size(p)).isLessThanOrEqualTo(4096);
            List<JsonNode> l = lines(p);
            assertThat(l).isNotEmpty();
            // each file stands alone: its clock and its numbering start over
            assertThat(l.getFirst().get("timestamp").asLong()).isZero();
            assertThat(l.getFirst().get("hash_ids").toString()).isEqualTo("[0,1,2]");
            assertThat(l.getFirst().get("session_id").asText()).isEqualTo("0");
            assertThat(l.get(1).get("hash_ids").toString()).isEqualTo("[0,3,4]");
            assertThat(l.get(1).get("timestamp").asLong()).isEqualTo(1000);
        }
        // the newest lines are in FILE, the older ones moved up; the earlier run's file and the oldest are gone
        List<JsonNode> last = lines(file);
        List<JsonNode> before = lines(f1);
        int kept = last.size() + before.size() + lines(f2).size();
        assertThat(kept).isLessThan(n);
        assertThat(Files.readString(f2)).doesNotContain("earlier run");
        assertThat(last.getLast().get("hash_ids").get(2).asInt()).isEqualTo(2 * last.size());
        assertThat(counter("homing_record_lines_total")).isEqualTo(n);
    }

    @Test
    void aFullNumberingStartsANewFile() throws Exception {
        Path file = dir.resolve("ids.jsonl");
        TraceRecorder r = new TraceRecorder(new RecordOptions(file, 1 << 20, 2, 100, 1 << 20, 5), metrics.registry());
        r.start();
        r.offer(completed(0, 1, 3, 1, null)); // ids 0, 1, 2
        r.offer(completed(10, 1, 2, 2, null)); // 0, 3
        r.offer(completed(20, 1, 3, 3, null)); // two new: 6 > 5, so a new file: 0, 1, 2
        r.close();
        assertThat(lines(dir.resolve("ids.jsonl.1"))).hasSize(2);
        List<JsonNode> now = lines(file);
        assertThat(now).hasSize(1);
        assertThat(now.getFirst().get("hash_ids").toString()).isEqualTo("[0,1,2]");
        assertThat(now.getFirst().get("timestamp").asLong()).isZero();
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfWaiting() throws Exception {
        Path file = dir.resolve("q.jsonl");
        TraceRecorder r = new TraceRecorder(new RecordOptions(file, 1 << 20, 2, 2, 1 << 20, 1000), metrics.registry());
        // not started: nothing takes from the queue
        for (int i = 0; i < 5; i++) {
            r.offer(completed(i, 1, 1, i, null));
        }
        assertThat(counter("homing_record_dropped_total")).isEqualTo(3);
        r.start();
        r.close();
        assertThat(lines(file)).hasSize(2);
    }

    @Test
    void recordsOnlyGenerationsThatEndedWellAndFallsBackToMaxTokensWithoutUsage() throws Exception {
        Path file = dir.resolve("o.jsonl");
        TraceRecorder r = new TraceRecorder(RecordOptions.of(file, 1 << 20, 2), metrics.registry());
        r.start();
        InferenceRequest withMax = request("{\"model\":\"m\",\"prompt\":\"hello there\",\"max_tokens\":7}", Map.of());
        InferenceRequest noMax = request("{\"model\":\"m\",\"prompt\":\"hello there\"}", Map.of());
        r.onComplete(cycle(withMax, 1), null, new Outcome(Outcome.Cause.NATURAL, 200, 120, 33, 0));
        r.onComplete(cycle(withMax, 2), null, Outcome.of(Outcome.Cause.NATURAL, 200)); // a stream without usage
        r.onComplete(cycle(noMax, 3), null, Outcome.of(Outcome.Cause.NATURAL, 200));
        r.onComplete(cycle(withMax, 4), null, new Outcome(Outcome.Cause.NATURAL, 500, 120, 0, 0));
        r.onComplete(cycle(withMax, 5), null, new Outcome(Outcome.Cause.CLIENT_DISCONNECT, 200, 120, 3, 0));
        InferenceRequest embed = new InferenceRequest("e", RequestParser.parse(ApiKind.EMBEDDINGS,
                "{\"model\":\"m\",\"input\":\"x\"}".getBytes(StandardCharsets.UTF_8)), Map.of());
        r.onComplete(cycle(embed, 6), null, new Outcome(Outcome.Cause.NATURAL, 200, 1, 0, 0));
        r.onComplete(new Cycle(withMax, new EndpointPool().snapshot(), 7, true), null,
                new Outcome(Outcome.Cause.NATURAL, 200, 120, 33, 0)); // a dry run routes nothing
        r.close();

        List<JsonNode> l = lines(file);
        assertThat(l).hasSize(2);
        assertThat(l.get(0).get("input_length").asLong()).isEqualTo(120);
        assertThat(l.get(0).get("output_length").asLong()).isEqualTo(33);
        // without usage: the tokens the producer put in the cycle, and max_tokens
        assertThat(l.get(1).get("input_length").asLong()).isEqualTo(3);
        assertThat(l.get(1).get("output_length").asLong()).isEqualTo(7);
        assertThat(counter("homing_record_skipped_total")).isEqualTo(4);
    }

    private static Cycle cycle(InferenceRequest request, long nanos) {
        Cycle c = new Cycle(request, new EndpointPool().snapshot(), nanos);
        c.put(PromptTokens.KEY, new PromptTokens(new int[] {5, 6, 7}));
        return c;
    }
}
