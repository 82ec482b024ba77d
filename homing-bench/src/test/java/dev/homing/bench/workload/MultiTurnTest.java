package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MultiTurnTest {

    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    /** 2 groups x 3 users, 4 turns each; two full rounds of conversations. */
    private static Workload chats() {
        return Workloads.create("multi-turn", params("num_groups", "2", "num_prompts_per_group", "3",
                "num_turns", "4", "system_prompt_len", "40", "question_len", "12", "output_len", "9",
                "concurrency", "3", "num_requests", "48"), 5);
    }

    @Test
    void promptTokensAreTheChatTemplateAppliedTokens() {
        for (WorkloadRequest r : chats().requests()) {
            List<ChatMessage> messages = r.prompt().messages().stream()
                    .map(m -> new ChatMessage(m.role(), m.content())).toList();
            assertThat(r.prompt().isChat()).isTrue();
            assertThat(r.prompt().tokens()).isEqualTo(TOKENIZER.encode(TOKENIZER.applyChatTemplate(messages, true)));
        }
    }

    @Test
    void eachTurnExtendsThePreviousTurnsPromptWithItsAnswerAndANewQuestion() {
        Map<Integer, WorkloadRequest> last = new HashMap<>();
        for (WorkloadRequest r : chats().requests()) {
            List<Prompt.Message> m = r.prompt().messages();
            assertThat(m.getFirst().role()).isEqualTo("system");
            assertThat(TOKENIZER.encode(m.getFirst().content())).hasSize(40);
            assertThat(m.getLast().role()).isEqualTo("user");
            assertThat(TOKENIZER.encode(m.getLast().content())).hasSize(12);
            assertThat(m).hasSize(2 + 2 * r.turn());
            assertThat(r.maxTokens()).isEqualTo(9);
            WorkloadRequest previous = last.put(r.conversation(), r);
            if (r.turn() == 0) {
                assertThat(previous).isNull();
                continue;
            }
            assertThat(previous).as("turn %d of %d comes after turn %d", r.turn(), r.conversation(), r.turn() - 1)
                    .isNotNull();
            assertThat(previous.turn()).isEqualTo(r.turn() - 1);
            assertThat(previous.group()).isEqualTo(r.group());
            int[] before = previous.prompt().tokens();
            int[] now = r.prompt().tokens();
            assertThat(Arrays.copyOf(now, before.length)).isEqualTo(before);
            assertThat(m.subList(0, m.size() - 2)).isEqualTo(previous.prompt().messages());
            Prompt.Message answer = m.get(m.size() - 2);
            assertThat(answer.role()).isEqualTo("assistant");
            assertThat(TOKENIZER.encode(answer.content())).hasSize(previous.maxTokens());
        }
    }

    @Test
    void usersTakeTurnsRoundRobinAndStartNewConversationsAfterNumTurns() {
        List<WorkloadRequest> rs = chats().requests();
        assertThat(rs).hasSize(48);
        Set<Integer> firstRound = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            assertThat(rs.get(i).turn()).isZero();
            firstRound.add(rs.get(i).conversation());
        }
        assertThat(firstRound).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
        for (int i = 0; i < 48; i++) {
            WorkloadRequest r = rs.get(i);
            assertThat(r.turn()).isEqualTo((i / 6) % 4);
            assertThat(r.conversation() % 6).isEqualTo(rs.get(i % 6).conversation());
            assertThat(r.conversation() / 6).isEqualTo(i / 24);
            assertThat(r.group()).isEqualTo((r.conversation() % 6) / 3);
        }
        // a user's second conversation starts afresh under the same system prompt
        WorkloadRequest again = rs.get(24);
        assertThat(again.turn()).isZero();
        assertThat(again.prompt().messages()).hasSize(2);
        assertThat(again.prompt().messages().getFirst()).isEqualTo(rs.get(0).prompt().messages().getFirst());
    }

    @Test
    void groupsShareTheirSystemPrompt() {
        Map<Integer, String> systemOf = new HashMap<>();
        for (WorkloadRequest r : chats().requests()) {
            String system = r.prompt().messages().getFirst().content();
            assertThat(systemOf.computeIfAbsent(r.group(), g -> system)).isEqualTo(system);
        }
        assertThat(systemOf).hasSize(2);
        assertThat(systemOf.get(0)).isNotEqualTo(systemOf.get(1));
    }

    @Test
    void onePassIsEveryUsersTurns() {
        Workload w = Workloads.create("multi-turn", params("concurrency", "2", "num_turns", "3"), 1);
        assertThat(w.requests()).hasSize(10 * 10 * 3);
        assertThat(w.closedLoop()).isTrue();
    }
}
