package dev.homing.bench.workload;

import static dev.homing.bench.workload.WorkloadAssertions.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LongContextTest {

    private static final long SECOND = 1_000_000_000L;

    /** The defaults at 4 requests/s for 5 minutes: about 1,100 requests in 550 sessions. */
    private static Workload defaults(long seed) {
        return Workloads.create("long-context", params("qps", "4", "duration", "300"), seed);
    }

    @Test
    void lengthsAndReuseLandNearThePublishedStatisticsOnEverySeed() {
        int longest = 0;
        for (long seed = 1; seed <= 4; seed++) {
            Workload w = defaults(seed);
            int[] len = w.requests().stream().mapToInt(r -> r.prompt().tokens().length).sorted().toArray();
            double mean = Arrays.stream(len).average().orElseThrow();
            double over32k = (double) Arrays.stream(len).filter(n -> n > 32_000).count() / len.length;
            // Mooncake conversation: mean 12.6k, median 8.6k; the lognormal's e^mu is 7.2k
            assertThat(mean).as("seed %d mean", seed).isBetween(9_500.0, 15_500.0);
            assertThat(len[len.length / 2]).as("seed %d median", seed).isBetween(6_000, 10_000);
            assertThat(over32k).as("seed %d share over 32k", seed).isBetween(0.03, 0.14);
            assertThat(len[len.length - 1]).as("seed %d longest", seed).isLessThanOrEqualTo(128_000 + 32);
            longest = Math.max(longest, len[len.length - 1]);
            double bound = HitRateBound.of(w, 16);
            assertThat(bound).as("seed %d infinite-cache bound", seed).isBetween(0.35, 0.65);
        }
        assertThat(longest).as("the tail reaches the context").isGreaterThan(100_000);
    }

    @Test
    void eachTurnIsThePreviousPromptItsAnswerAndANewUserMessageAThinkTimeLater() {
        Workload w = Workloads.create("long-context", params("qps", "4", "duration", "120", "turns_mean", "3"), 3);
        Map<Integer, WorkloadRequest> last = new HashMap<>();
        int followUps = 0;
        for (WorkloadRequest r : w.requests()) {
            WorkloadRequest previous = last.put(r.conversation(), r);
            assertThat(r.conversation()).isNotNegative();
            if (r.turn() == 0) {
                assertThat(previous).isNull();
                assertThat(r.gapNanos()).isEqualTo(-1);
                assertThat(r.followsByGap()).isFalse();
                continue;
            }
            followUps++;
            assertThat(previous.turn()).isEqualTo(r.turn() - 1);
            assertThat(previous.group()).isEqualTo(r.group());
            int[] before = previous.prompt().tokens();
            int[] now = r.prompt().tokens();
            assertThat(Arrays.copyOf(now, before.length)).isEqualTo(before);
            List<Prompt.Message> m = r.prompt().messages();
            assertThat(m.subList(0, m.size() - 2)).isEqualTo(previous.prompt().messages());
            assertThat(m.get(m.size() - 2).role()).isEqualTo("assistant");
            assertThat(m.get(m.size() - 2).content().split(" ", -1)).hasSize(previous.maxTokens() + 1);
            assertThat(m.getLast().role()).isEqualTo("user");
            assertThat(r.followsByGap()).isTrue();
            assertThat(r.gapNanos()).isPositive().isLessThanOrEqualTo(600 * SECOND);
            assertThat(r.arrivalNanos()).as("nominal time: the previous turn's, its answer at 25 ms a token, then"
                    + " the think time").isEqualTo(previous.arrivalNanos() + previous.maxTokens() * 25_000_000L
                    + r.gapNanos());
            assertThat(r.stage()).isEqualTo(previous.stage());
        }
        assertThat(followUps).isGreaterThan(w.requests().size() / 3);
        List<Long> arrivals = w.requests().stream().map(WorkloadRequest::arrivalNanos).toList();
        assertThat(arrivals).isSorted();
    }

    @Test
    void aSessionEndsBeforeItsContextWouldOverflow() {
        Workload w = Workloads.create("long-context", params("qps", "5", "duration", "60", "turns_mean", "50",
                "prompt_len_max", "20000", "output_len", "1000", "user_len", "1000"), 2);
        assertThat(w.requests()).allSatisfy(r -> assertThat(r.prompt().tokens().length)
                .isLessThanOrEqualTo(20_000 + 32));
        assertThat(w.requests().stream().mapToInt(WorkloadRequest::turn).max().orElseThrow())
                .as("sessions still grow for a while").isGreaterThan(3);
    }

    @Test
    void theCacheCurveHasMooncakesShapeOnEverySeed() {
        for (long seed = 1; seed <= 4; seed++) {
            // Mooncake's rate (conversation trace: 3.4 requests/s) for 10 minutes
            Workload w = Workloads.create("long-context", params("qps", "3", "duration", "600"), seed);
            BlockTrace t = BlockTrace.of(w, 16);
            double small = LruBound.of(t, 512_000 / 16);
            double fleet = LruBound.of(t, 8L * 28_835);
            double infinite = HitRateBound.of(w, 16);
            // Mooncake's report: one LRU pool of 1,000 512-token blocks hits ~30 %; more capacity keeps gaining
            assertThat(small).as("seed %d LRU of 512k tokens", seed).isBetween(0.24, 0.36);
            assertThat(fleet).as("seed %d LRU of 8 Llama-70B pods' KV", seed).isGreaterThan(small + 0.08);
            assertThat(infinite).as("seed %d infinite", seed).isBetween(fleet, 0.65);
        }
    }

    @Test
    void contextsAreTheSameWhoeverReadsThemFirst() {
        // the same seed, another load and share: sessions start at other times and read contexts in another order
        Map<Integer, List<String>> first = new HashMap<>();
        for (WorkloadRequest r : Workloads.create("long-context", params("qps", "2", "duration", "300"), 5)
                .requests()) {
            List<String> opening = opening(r);
            if (opening != null) {
                first.putIfAbsent(r.group(), opening);
            }
        }
        int compared = 0;
        for (WorkloadRequest r : Workloads.create("long-context", params("qps", "6", "duration", "120",
                "doc_share", "1"), 5).requests()) {
            List<String> opening = opening(r);
            List<String> seen = opening == null ? null : first.get(r.group());
            if (seen != null) {
                assertThat(opening).as("context %d", r.group()).isEqualTo(seen);
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(20);
    }

    /**
     * A first turn's opening 50 words when they are all its context's: its first user message holds at least 1,100
     * words (a user's own message is at most 1,000, so the context and the session's text take the rest, the context
     * first) and contexts are never that short (their lengths are a prompt's, median 7k); null otherwise.
     */
    private static List<String> opening(WorkloadRequest r) {
        if (r.turn() != 0 || r.group() < 0) {
            return null;
        }
        String[] words = r.prompt().messages().get(1).content().trim().split(" ");
        return words.length < 1_100 ? null : List.of(words).subList(0, 50);
    }

    @Test
    void aShareOfSessionsStartsFromZipfPopularDocuments() {
        int[] perDoc = new int[100];
        int sessions = 0;
        int withDoc = 0;
        for (long seed = 1; seed <= 4; seed++) {
            Map<Integer, List<WorkloadRequest>> firstByDoc = new HashMap<>();
            for (WorkloadRequest r : Workloads.create("long-context", params("qps", "4", "duration", "300",
                    "num_docs", "100", "doc_share", "0.3"), seed).requests()) {
                if (r.turn() != 0) {
                    continue;
                }
                sessions++;
                if (r.group() >= 0) {
                    withDoc++;
                    perDoc[r.group()]++;
                    firstByDoc.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
                }
            }
            // two sessions of one document share its opening tokens after the system prompt
            List<WorkloadRequest> top = firstByDoc.get(0);
            assertThat(top).as("seed %d: the most popular document is read", seed).hasSizeGreaterThan(1);
            String a = top.get(0).prompt().messages().get(1).content();
            String b = top.get(1).prompt().messages().get(1).content();
            int shortest = Math.min(a.length(), b.length());
            assertThat(a.substring(0, Math.min(shortest, 200))).isEqualTo(b.substring(0, Math.min(shortest, 200)));
        }
        assertThat((double) withDoc / sessions).isBetween(0.25, 0.35); // doc_share 0.3
        // Zipf 1.1 over 100: document 0 takes ~19 %, document 9 ~1.5 %, the last half ~12 % together
        assertThat((double) perDoc[0] / withDoc).isBetween(0.13, 0.26);
        assertThat(perDoc[0]).isGreaterThan(4 * perDoc[9]);
    }

    @Test
    void sessionsStartInBurstsAtTheRateThatOffersQps() {
        for (long seed = 1; seed <= 4; seed++) {
            Workload w = Workloads.create("long-context", params("qps", "20", "duration", "300", "num_docs", "4", "turns_mean", "2",
                    "prompt_len_mu", "6", "prompt_len_sigma", "0.5"), seed);
            long[] starts = w.requests().stream().filter(r -> r.turn() == 0)
                    .mapToLong(WorkloadRequest::arrivalNanos).toArray();
            double[] gaps = new double[starts.length - 1];
            for (int i = 1; i < starts.length; i++) {
                gaps[i - 1] = (starts[i] - starts[i - 1]) / 1e9;
            }
            double mean = Arrays.stream(gaps).average().orElseThrow();
            double sd = Math.sqrt(Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / (gaps.length - 1));
            // 20 requests/s over a mean of 2 turns: 10 sessions/s; Gamma shape 0.5: CV sqrt(2) = 1.41
            assertThat(1 / mean).as("seed %d sessions/s", seed).isBetween(8.5, 11.5);
            assertThat(sd / mean).as("seed %d inter-arrival CV", seed).isBetween(1.2, 1.65);
            assertThat(w.stageQps()).containsExactly(20.0);
        }
    }

    @Test
    void theLoadChangesWhenSessionsStartNotWhatTheyAsk() {
        Workload slow = Workloads.create("long-context", params("qps", "2", "duration", "60"), 8);
        Workload fast = Workloads.create("long-context", params("qps", "6", "duration", "60"), 8);
        Map<Integer, int[]> slowFirst = new HashMap<>();
        slow.requests().stream().filter(r -> r.turn() == 0)
                .forEach(r -> slowFirst.put(r.conversation(), r.prompt().tokens()));
        int compared = 0;
        for (WorkloadRequest r : fast.requests()) {
            int[] same = r.turn() == 0 ? slowFirst.get(r.conversation()) : null;
            if (same != null) {
                assertThat(r.prompt().tokens()).as("session %d", r.conversation()).isEqualTo(same);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(slowFirst.size());
    }

    @Test
    void badParametersAreRefusedNamingThem() {
        assertThatThrownBy(() -> Workloads.create("long-context", params("concurrency", "4"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency")
                .hasMessageContaining("give qps");
        assertThatThrownBy(() -> Workloads.create("long-context", params("doc_share", "1.5"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("doc_share");
        assertThatThrownBy(() -> Workloads.create("long-context", params("arrival_shape", "0"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("arrival_shape");
        assertThatThrownBy(() -> Workloads.create("long-context", params("qps", "0", "duration", "10"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one session");
    }
}
