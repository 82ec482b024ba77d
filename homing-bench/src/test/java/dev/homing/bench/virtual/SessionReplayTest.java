package dev.homing.bench.virtual;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.policy.Policies;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session-aware replay in virtual time, where every instant is exact: a trace in the Mooncake format
 * {@code homing serve --record} writes, two sessions and two records without one.
 */
class SessionReplayTest {

    private static final long MS = 1_000_000L;
    private static final Scenario QUICK = Scenarios.get("quick", Map.of());

    /**
     * Session a: turn 1 was recorded 10 ms after turn 0 was sent (long before a 200-token answer can end), turn 2
     * 8,990 ms after turn 1. Session b starts while a's first answer is streaming; its second turn gives AIPerf's
     * delay (250 ms), which wins over its timestamp. Two records without a session id.
     */
    private static final String TRACE = """
            {"timestamp": 0, "input_length": 600, "output_length": 200, "hash_ids": [0, 1], "session_id": "a"}
            {"timestamp": 10, "input_length": 1100, "output_length": 50, "hash_ids": [0, 1, 2], "session_id": "a"}
            {"timestamp": 500, "input_length": 700, "output_length": 40, "hash_ids": [0, 3], "session_id": "b"}
            {"timestamp": 700, "input_length": 300, "output_length": 10, "hash_ids": [4]}
            {"timestamp": 3000, "input_length": 1200, "output_length": 10, "hash_ids": [0, 3, 5], "session_id": "b", \
            "delay": 250}
            {"timestamp": 9000, "input_length": 1600, "output_length": 10, "hash_ids": [0, 1, 2, 6], "session_id": "a"}
            {"timestamp": 9500, "input_length": 300, "output_length": 10, "hash_ids": [7]}
            """;

    @TempDir
    Path dir;

    private Workload trace(String text) throws IOException {
        Path f = dir.resolve("recorded.jsonl");
        Files.writeString(f, text);
        return Workloads.create("trace", Map.of("file", f.toString(), "model", "Qwen/Qwen3-32B"), 1);
    }

    @Test
    void aTurnGoesItsRecordedGapAfterItsPredecessorsAnswerAndSessionsInterleave() throws IOException {
        Workload w = trace(TRACE);
        BenchReport report = VirtualBench.run(QUICK, w, List.of(Policies.ROUND_ROBIN, Policies.HOMING), 1,
                (p, f) -> { }, 2);
        for (PolicyRun run : report.runs()) {
            Map<String, RequestRecord> byId = new HashMap<>();
            for (RequestRecord r : run.records()) {
                assertThat(r.ok()).as("%s %s", run.policy(), r.id()).isTrue();
                byId.put(r.id(), r);
            }
            // replay order is timestamp order: a0 a1 b0 x b1 a2 y
            RequestRecord a0 = byId.get("trace-0");
            RequestRecord a1 = byId.get("trace-1");
            RequestRecord b0 = byId.get("trace-2");
            RequestRecord x = byId.get("trace-3");
            RequestRecord b1 = byId.get("trace-4");
            RequestRecord a2 = byId.get("trace-5");
            RequestRecord y = byId.get("trace-6");
            String p = run.policy();
            assertThat(a0.arrivalNanos()).as(p).isZero();
            assertThat(end(a0)).as("%s: the first answer takes longer than the recorded 10 ms", p)
                    .isGreaterThan(10 * MS);
            assertThat(a1.arrivalNanos()).as("%s: a1 = a0's answer + 10 ms", p).isEqualTo(end(a0) + 10 * MS);
            assertThat(a2.arrivalNanos()).as("%s: a2 = a1's answer + 8,990 ms", p).isEqualTo(end(a1) + 8_990 * MS);
            assertThat(b0.arrivalNanos()).as("%s: a session's first turn at its timestamp", p).isEqualTo(500 * MS);
            assertThat(b0.arrivalNanos()).as("%s: b starts while a's first answer streams", p).isLessThan(end(a0));
            assertThat(b1.arrivalNanos()).as("%s: delay wins over the timestamps", p).isEqualTo(end(b0) + 250 * MS);
            assertThat(x.arrivalNanos()).as("%s: no session, its timestamp", p).isEqualTo(700 * MS);
            assertThat(y.arrivalNanos()).as(p).isEqualTo(9_500 * MS);
        }
    }

    @Test
    void withoutSessionIdsTheSameRecordsReplayOnTheirTimestamps() throws IOException {
        Workload w = trace(TRACE.replaceAll(", \"session_id\": \"[ab]\"", "").replace(", \"delay\": 250", ""));
        assertThat(w.requests()).allSatisfy(r -> assertThat(r.conversation()).isEqualTo(-1));
        BenchReport report = VirtualBench.run(QUICK, w, List.of(Policies.ROUND_ROBIN), 1, (p, f) -> { }, 1);
        List<RequestRecord> records = report.runs().getFirst().records();
        List<Long> sent = records.stream().map(RequestRecord::arrivalNanos).toList();
        assertThat(sent).containsExactly(0L, 10 * MS, 500 * MS, 700 * MS, 3_000 * MS, 9_000 * MS, 9_500 * MS);
    }

    @Test
    void longContextSessionsFollowTheirAnswersByTheirThinkTimes() {
        Workload w = Workloads.create("long-context", Map.of("qps", "3", "duration", "20", "prompt_len_mu", "7",
                "num_docs", "8", "turns_mean", "3", "think_median_s", "0.5", "think_sigma", "1",
                "model", "Qwen/Qwen3-32B"), 4);
        BenchReport report = VirtualBench.run(QUICK, w, List.of(Policies.HOMING), 4, (p, f) -> { }, 1);
        List<RequestRecord> records = report.runs().getFirst().records();
        Map<Integer, Integer> lastOf = new HashMap<>();
        int followed = 0;
        for (int i = 0; i < w.requests().size(); i++) {
            WorkloadRequest q = w.requests().get(i);
            RequestRecord r = records.get(i);
            Integer previous = lastOf.put(q.conversation(), i);
            if (q.turn() == 0) {
                assertThat(r.arrivalNanos()).isEqualTo(q.arrivalNanos());
            } else {
                assertThat(r.arrivalNanos()).as(q.id()).isEqualTo(end(records.get(previous)) + q.gapNanos());
                followed++;
            }
        }
        assertThat(followed).isPositive();
    }

    private static long end(RequestRecord r) {
        return r.arrivalNanos() + r.e2eNanos();
    }
}
