package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReplayTest {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private Workload replay(String jsonl, String... extra) throws IOException {
        Path f = Files.createTempFile(dir, "trace", ".jsonl");
        Files.writeString(f, jsonl);
        Map<String, String> p = params(extra);
        p.put("file", f.toString());
        return Workloads.create("trace", p, 1);
    }

    @Test
    void textAndChatRecordsReplayAtTheirTimestampsInOrder() throws IOException {
        Workload w = replay("""
                {"timestamp": 1500, "model": "m1", "prompt": "Hello there, how are you?", "max_tokens": 9}
                {"timestamp": 1000, "messages": [{"role": "user", "content": "Hi"}], "max_completion_tokens": 4}

                {"timestamp": 1500, "messages": [{"role": "system", "content": [{"type": "text", "text": "Be "}, \
                {"type": "text", "text": "brief."}]}, {"role": "user", "content": "Why?"}]}
                """, "speed", "2", "output_len", "33");
        List<WorkloadRequest> rs = w.requests();
        assertThat(rs).hasSize(3);
        // sorted by timestamp, ties in file order; (t - first) / speed
        assertThat(rs).extracting(WorkloadRequest::arrivalNanos).containsExactly(0L, 250 * MS, 250 * MS);
        WorkloadRequest chat = rs.get(0);
        assertThat(chat.prompt().messages()).containsExactly(new Prompt.Message("user", "Hi"));
        assertThat(chat.prompt().tokens()).isEqualTo(TOKENIZER.encode(TOKENIZER.applyChatTemplate(
                List.of(new ChatMessage("user", "Hi")), true)));
        assertThat(chat.maxTokens()).isEqualTo(4);
        assertThat(chat.model()).isEqualTo("Qwen/Qwen2.5-0.5B-Instruct");
        WorkloadRequest text = rs.get(1);
        assertThat(text.prompt().text()).isEqualTo("Hello there, how are you?");
        assertThat(text.prompt().tokens()).isEqualTo(TOKENIZER.encode("Hello there, how are you?"));
        assertThat(text.model()).isEqualTo("m1");
        assertThat(text.maxTokens()).isEqualTo(9);
        assertThat(rs.get(2).prompt().messages().getFirst().content()).isEqualTo("Be brief.");
        assertThat(rs.get(2).maxTokens()).isEqualTo(33);
        assertThat(w.stageQps()).singleElement().satisfies(q -> assertThat(q).isCloseTo(3 / 0.25, within(1e-9)));
        assertThat(w.parameters()).containsEntry(Workloads.ARRIVAL, "timestamps")
                .doesNotContainKey(Workloads.PROMPTS_AS);
    }

    @Test
    void tokenIdTracesAreMarkedToBeSentAsIds() throws IOException {
        Workload w = replay("""
                {"timestamp": 0, "prompt_token_ids": [1, 2, 3, 151644], "max_tokens": 2}
                {"timestamp": 5, "token_ids": [7, 8]}
                {"timestamp": 9, "prompt": [4, 5]}
                """);
        assertThat(w.requests()).extracting(r -> r.prompt().tokens())
                .containsExactly(new int[] {1, 2, 3, 151644}, new int[] {7, 8}, new int[] {4, 5});
        assertThat(w.parameters()).containsEntry(Workloads.PROMPTS_AS, "token_ids");
    }

    @Test
    void mooncakeRecordsKeepTheirSharingStructure() throws IOException {
        Workload w = replay("""
                {"timestamp": 0, "input_length": 1500, "output_length": 7, "hash_ids": [1, 2, 3]}
                {"timestamp": 10, "input_length": 1400, "output_length": 8, "hash_ids": [1, 2, 4]}
                {"timestamp": 20, "input_length": 2000, "output_length": 9, "hash_ids": [1, 2, 3, 5]}
                {"timestamp": 30, "input_length": 100, "output_length": 1, "hash_ids": [6]}
                """);
        List<WorkloadRequest> rs = w.requests();
        int[] a = rs.get(0).prompt().tokens();
        int[] b = rs.get(1).prompt().tokens();
        int[] c = rs.get(2).prompt().tokens();
        assertThat(a).hasSize(1500);
        assertThat(b).hasSize(1400);
        assertThat(c).hasSize(2000);
        assertThat(rs).extracting(WorkloadRequest::maxTokens).containsExactly(7, 8, 9, 1);
        assertThat(rs).allMatch(WorkloadRequest::ignoreEos);
        assertThat(commonPrefix(a, b)).isBetween(1024, 1024 + 2); // ids 3 and 4 differ from their first tokens
        assertThat(commonPrefix(a, c)).isEqualTo(1500);            // a's last block is id 3's first 476 tokens
        for (WorkloadRequest r : rs) {
            assertThat(TOKENIZER.encode(r.prompt().text())).isEqualTo(r.prompt().tokens());
        }
        // infinite cache at block size 16: b reuses 1,024 (ids 1, 2); c reuses a's 93 full blocks (1,488)
        assertThat(HitRateBound.of(w, 16)).isCloseTo((1024 + 1488) / 5000.0, within(1e-12));
        // 512-token blocks, Mooncake's own: b reuses 2 blocks, c reuses 2 (a's third block was partial)
        assertThat(HitRateBound.of(w, 512)).isCloseTo((1024 + 1024) / 5000.0, within(1e-12));
    }

    @Test
    void theWorkloadSeedChoosesTheSyntheticTokens() throws IOException {
        String jsonl = "{\"timestamp\": 0, \"input_length\": 600, \"hash_ids\": [1, 2]}\n";
        Path f = Files.writeString(dir.resolve("one.jsonl"), jsonl);
        int[] one = Workloads.create("trace", params("file", f.toString()), 1).requests().getFirst().prompt().tokens();
        int[] two = Workloads.create("trace", params("file", f.toString()), 2).requests().getFirst().prompt().tokens();
        assertThat(one).isNotEqualTo(two);
    }

    @Test
    void durationWindowsTheTraceAndNumRequestsCapsIt() throws IOException {
        String jsonl = """
                {"timestamp": 0, "prompt": "a"}
                {"timestamp": 1000, "prompt": "b"}
                {"timestamp": 2000, "prompt": "c"}
                {"timestamp": 3000, "prompt": "d"}
                """;
        assertThat(replay(jsonl, "duration", "2").requests()).hasSize(2);
        assertThat(replay(jsonl, "duration", "2", "speed", "2").requests()).hasSize(4);
        assertThat(replay(jsonl, "num_requests", "3").requests()).hasSize(3);
        Workload closed = replay(jsonl, "concurrency", "2");
        assertThat(closed.closedLoop()).isTrue();
        assertThat(closed.requests()).extracting(r -> r.prompt().text()).containsExactly("a", "b", "c", "d");
        Workload paced = replay(jsonl, "qps", "100");
        assertThat(paced.requests()).hasSize(4);
    }

    @Test
    void recordsWithoutTimestampsNeedAnotherArrival() throws IOException {
        String jsonl = "{\"prompt\": \"x\"}\n{\"timestamp\": 4, \"prompt\": \"y\"}\n";
        assertThatThrownBy(() -> replay(jsonl)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timestamp");
        assertThat(replay(jsonl, "concurrency", "1").requests()).extracting(r -> r.prompt().text())
                .containsExactly("x", "y");
    }

    @Test
    void sessionIdsMakeTurnsWhoseGapIsTheDelayOrTheTimestampDifference() throws IOException {
        // the shape homing serve --record writes; session ids as strings or integers
        Workload w = replay("""
                {"timestamp": 4000, "input_length": 900, "output_length": 5, "hash_ids": [0, 1, 2], "session_id": "s1"}
                {"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [0, 1], "session_id": "s1"}
                {"timestamp": 1000, "input_length": 300, "output_length": 5, "hash_ids": [3], "session_id": 7}
                {"timestamp": 1500, "input_length": 300, "output_length": 5, "hash_ids": [4]}
                {"timestamp": 2500, "input_length": 700, "output_length": 5, "hash_ids": [3, 5], "session_id": 7,                 "delay": 120.5}
                """, "speed", "2");
        List<WorkloadRequest> rs = w.requests();
        assertThat(rs).extracting(WorkloadRequest::conversation).containsExactly(0, 1, -1, 1, 0);
        assertThat(rs).extracting(WorkloadRequest::turn).containsExactly(0, 0, 0, 1, 1);
        // a first turn and a record without a session go at their timestamps; later turns by their gaps / speed
        assertThat(rs).extracting(WorkloadRequest::followsByGap).containsExactly(false, false, false, true, true);
        assertThat(rs.get(3).gapNanos()).isEqualTo(Math.round(120.5 * MS / 2));
        assertThat(rs.get(4).gapNanos()).isEqualTo(2_000 * MS);
        assertThat(rs).extracting(WorkloadRequest::arrivalNanos)
                .containsExactly(0L, 500 * MS, 750 * MS, 1_250 * MS, 2_000 * MS);
        assertThat(rs.get(4).prompt().tokens()).hasSize(900);

        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt\": \"a\", \"session_id\": [1]}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 1")
                .hasMessageContaining("session_id");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt\": \"a\", \"delay\": -1}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay");
    }

    @Test
    void badRecordsAreRefusedNamingTheLine() throws IOException {
        assertThatThrownBy(() -> replay("{\"prompt\": \"ok\", \"timestamp\": 0}\n{not json\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"max_tokens\": 3}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 1")
                .hasMessageContaining("no prompt");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt\": \"a\", \"messages\": []}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("several prompts");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt\": \"a\", \"max_tokens\": 0}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_tokens");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt\": \"a\"}\n{\"timestamp\": 1, \"token_ids\": [1]}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2")
                .hasMessageContaining("token ids");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"prompt_token_ids\": [1, -2]}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt_token_ids[1]");
        assertThatThrownBy(() -> replay("{\"timestamp\": 0, \"hash_ids\": [1]}\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("input_length");
        assertThatThrownBy(() -> replay(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no records");
        assertThatThrownBy(() -> Workloads.create("trace", params("file", dir.resolve("missing").toString()), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such file");
    }

    private static int commonPrefix(int[] x, int[] y) {
        int n = Arrays.mismatch(x, y);
        return n < 0 ? Math.min(x.length, y.length) : n;
    }
}
