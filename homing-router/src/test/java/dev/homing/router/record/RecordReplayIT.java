package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.bench.live.LiveDriver;
import dev.homing.bench.policy.Policies;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.virtual.Scenarios;
import dev.homing.bench.virtual.VirtualBench;
import dev.homing.bench.workload.HitRateBound;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.Workloads;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The round trip of issue 13 item 4: a known Mooncake trace is replayed live through a real router in front of
 * simulated pods with {@code --record}; the recorded file, replayed by the bench's {@code trace} workload, has the
 * original's requests, lengths and prefix sharing, and runs in the virtual-time runner against policies.
 */
class RecordReplayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000;
    /** Fast pods: 20 µs a prompt token, 2 ms a decode step, so a 3,000-token prompt takes tens of ms. */
    private static final EngineConfig FAST = Preset.CPU_QWEN2_5_0_5B.engine()
            .withCost(CostModel.simple(0, 20_000, 2 * MS, 0));

    @TempDir
    Path dir;

    /**
     * 24 records 150 ms apart: every prompt starts with block 0 (a system prompt); four conversations of four turns
     * each share their growing history (turn t holds t + 1 blocks of it); eight one-off questions share only block 0.
     * Each record's last block is partial and its own, so no record shares a partial block.
     */
    private Path original() throws Exception {
        List<String> lines = new ArrayList<>();
        int next = 1;
        int[][] history = new int[4][4];
        for (int s = 0; s < 4; s++) {
            for (int b = 0; b < 4; b++) {
                history[s][b] = next++;
            }
        }
        int record = 0;
        for (int round = 0; round < 4; round++) {
            for (int s = 0; s < 4; s++) {
                List<Integer> ids = new ArrayList<>(List.of(0));
                for (int b = 0; b <= round; b++) {
                    ids.add(history[s][b]);
                }
                ids.add(next++);
                lines.add(line(record++, ids, 60 + 37 * s + 11 * round, 4 + s + round));
            }
            for (int q = 0; q < 2; q++) {
                lines.add(line(record++, List.of(0, next++), 200 + 90 * q + 7 * round, 3 + q));
            }
        }
        Path file = dir.resolve("original.jsonl");
        Files.write(file, lines);
        return file;
    }

    private static String line(int record, List<Integer> ids, int lastBlockTokens, int output) {
        int input = (ids.size() - 1) * 512 + lastBlockTokens;
        return "{\"timestamp\": " + record * 150 + ", \"input_length\": " + input + ", \"output_length\": " + output
                + ", \"hash_ids\": " + ids + "}";
    }

    private record Line(long timestamp, int input, int output, List<Long> ids) {
    }

    private static List<Line> read(Path file) throws Exception {
        List<Line> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            JsonNode o = JSON.readTree(l);
            List<Long> ids = new ArrayList<>();
            o.get("hash_ids").forEach(n -> ids.add(n.asLong()));
            out.add(new Line(o.get("timestamp").asLong(), o.get("input_length").asInt(),
                    o.get("output_length").asInt(), ids));
        }
        out.sort(Comparator.comparingLong(Line::timestamp)); // replay order; the file is in completion order
        return out;
    }

    /** The ids renumbered in first-seen order: two traces have the same sharing when these are equal. */
    private static List<List<Integer>> canonical(List<Line> lines) {
        Map<Long, Integer> seen = new HashMap<>();
        List<List<Integer>> out = new ArrayList<>();
        for (Line l : lines) {
            out.add(l.ids().stream().map(id -> seen.computeIfAbsent(id, k -> seen.size())).toList());
        }
        return out;
    }

    /** For each record, how many of its leading blocks an earlier record had. */
    private static List<Integer> sharedPrefix(List<Line> lines) {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        List<Integer> out = new ArrayList<>();
        for (Line l : lines) {
            int k = 0;
            while (k < l.ids().size() && seen.contains(l.ids().get(k))) {
                k++;
            }
            out.add(k);
            seen.addAll(l.ids());
        }
        return out;
    }

    private Path recordLive(Path original, boolean precise) throws Exception {
        Path recorded = dir.resolve(precise ? "precise.jsonl" : "approx.jsonl");
        Workload w = Workloads.create("trace", Map.of("file", original.toString()), 1);
        try (TestCluster c = TestCluster.start(3, b -> b.engine(FAST), o -> o.with(x -> {
            x.record = RecordOptions.of(recorded, 1 << 20, 2);
            x.precise = precise;
        }))) {
            PolicyRun run = new LiveDriver().run(URI.create(c.url("")), w, "homing", null);
            assertThat(run.records()).hasSize(24).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        } // closing the router writes what is queued
        return recorded;
    }

    /**
     * The original's records in the order the router saw them. Sent 150 ms apart, they mostly arrive in trace order,
     * but a live run is free to bunch them (the first sends of a cold JVM go late, then together), so records are
     * matched by their input length, which the trace makes unique, and every comparison of sharing is made in the
     * recorded order.
     */
    private static List<Line> matched(List<Line> got, List<Line> want) {
        Map<Integer, Line> byInput = new HashMap<>();
        want.forEach(l -> byInput.put(l.input(), l));
        assertThat(byInput).as("the trace's input lengths are unique").hasSameSizeAs(want);
        assertThat(got).hasSameSizeAs(want);
        assertThat(got).extracting(Line::input).as("the same requests").containsExactlyInAnyOrderElementsOf(
                want.stream().map(Line::input).toList());
        List<Line> ordered = got.stream().map(g -> byInput.get(g.input())).toList();
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i).output()).as("output_length of %s", got.get(i)).isEqualTo(ordered.get(i).output());
            assertThat(got.get(i).ids()).as("one id a 512 tokens").hasSize((got.get(i).input() + 511) / 512);
        }
        assertThat(got.getFirst().timestamp()).isZero();
        return ordered;
    }

    /** The lines as a trace, in their order (timestamps 0, 1, 2, ... ms), for the bench to read. */
    private Workload asTrace(List<Line> lines, String name) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            out.add("{\"timestamp\": " + i + ", \"input_length\": " + l.input() + ", \"output_length\": "
                    + l.output() + ", \"hash_ids\": " + l.ids() + "}");
        }
        Path file = dir.resolve(name);
        Files.write(file, out);
        return Workloads.create("trace", Map.of("file", file.toString()), 1);
    }

    @Test
    void withTokensTheRecordedTraceHasTheOriginalsSharingExactly() throws Exception {
        Path original = original();
        Path recorded = recordLive(original, true);
        List<Line> got = read(recorded);
        List<Line> want = matched(got, read(original));
        assertThat(canonical(got)).isEqualTo(canonical(want));

        Workload replay = Workloads.create("trace", Map.of("file", recorded.toString()), 2);
        double bound = HitRateBound.of(asTrace(want, "expected.jsonl"), 16);
        assertThat(HitRateBound.of(replay, 16)).isEqualTo(bound);
        assertThat(bound).isBetween(0.3, 0.9);
        assertReplaysOnEveryPolicy(replay, got);
    }

    @Test
    void withBytesOnlyTheSharingHoldsToWithinOneBlockARecord() throws Exception {
        Path original = original();
        Path recorded = recordLive(original, false);
        List<Line> got = read(recorded);
        List<Line> want = matched(got, read(original));
        List<Integer> shared = sharedPrefix(got);
        List<Integer> expected = sharedPrefix(want);
        for (int i = 0; i < want.size(); i++) {
            assertThat(shared.get(i)).as("blocks %s shares with earlier ones", got.get(i))
                    .isBetween(expected.get(i) - 1, expected.get(i) + 1);
        }
        assertThat(shared.stream().mapToInt(Integer::intValue).sum()).as("sharing is seen").isPositive();
        Workload replay = Workloads.create("trace", Map.of("file", recorded.toString()), 2);
        double tolerance = 512.0 * want.size() / want.stream().mapToLong(Line::input).sum();
        assertThat(HitRateBound.of(replay, 16)).isCloseTo(HitRateBound.of(asTrace(want, "expected.jsonl"), 16),
                org.assertj.core.data.Offset.offset(tolerance));
        assertReplaysOnEveryPolicy(replay, got);
    }

    /** What {@code homing bench --workload trace} runs: the virtual-time fleet, one run a policy. */
    private static void assertReplaysOnEveryPolicy(Workload replay, List<Line> want) {
        BenchReport report = VirtualBench.run(Scenarios.get("quick", Map.of()), replay,
                List.of(Policies.ROUND_ROBIN, Policies.HOMING), 3, (p, f) -> { }, 1);
        assertThat(report.runs()).hasSize(2);
        for (PolicyRun run : report.runs()) {
            assertThat(run.records()).hasSize(want.size());
            assertThat(run.records()).extracting(RequestRecord::promptTokens)
                    .containsExactlyElementsOf(want.stream().map(Line::input).toList());
        }
    }
}
