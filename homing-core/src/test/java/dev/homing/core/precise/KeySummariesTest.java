package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeySummariesTest {

    /** The default weights' tiers: gpu, cpu, and one for any other. */
    private static final int TIERS = 3;

    private static PodIds pods(int n) {
        PodIds pods = new PodIds();
        for (int i = 0; i < n; i++) {
            pods.getOrAdd("pod-" + i);
        }
        return pods;
    }

    /**
     * A summary is one long, then a word of 64 pod ids per tier: from 4 holdings on, or from half as many holdings as
     * it has longs (about 16 bytes a holding) once the pods need more words.
     */
    @ParameterizedTest(name = "{0} tiers, {1} pods: from {2} holdings")
    @CsvSource({"3, 1, 4", "3, 64, 4", "3, 65, 4", "3, 129, 5", "3, 640, 15", "8, 65, 8"})
    void aKeyIsSummarizedFromFourHoldingsOrAboutSixteenBytesOfSummaryAHolding(int tiers, int podCount, int expected) {
        assertThat(new KeySummaries(tiers, new Holdings(), pods(podCount)).summaryAt()).isEqualTo(expected);
    }

    @Test
    void aKeyGetsASummaryAtTheThresholdAndKeepsItUntilItsHoldingsDropToHalfOfIt() {
        PodIds pods = pods(8);
        Holdings holdings = new Holdings();
        KeySummaries summaries = new KeySummaries(TIERS, holdings, pods);
        BoundedHoldings bounded = new BoundedHoldings(1000, holdings, summaries, new SpeculativeHolds(holdings), pods);
        long key = 42;
        int at = summaries.summaryAt();
        assertThat(at).isEqualTo(4);

        for (int p = 0; p < 8; p++) {
            // every third holding speculative, on the CPU tier: a summary counts those too
            boolean speculative = p % 3 == 2;
            bounded.hold(pods.byId(p), key, speculative ? 1 : 0, speculative ? 1_000 : 0);
            int held = p + 1;
            assertThat(summarized(holdings, summaries, key)).as("%d holdings", held).isEqualTo(held >= at);
            if (held >= at) {
                assertThat(KeySummaries.count(summaries.get(key))).isEqualTo(held);
            }
        }
        for (int p = 7; p >= 0; p--) {
            bounded.remove(pods.byId(p), key, p % 3 == 2 ? 1 : 0);
            int held = p;
            // below the threshold it stays summarized, so that a key held about that often does not flap
            assertThat(summarized(holdings, summaries, key)).as("%d holdings", held).isEqualTo(held > at / 2);
            if (held > at / 2) {
                assertThat(KeySummaries.count(summaries.get(key))).isEqualTo(held);
            }
        }
    }

    /** Whether the key has a summary; the table's flag must say the same. */
    private static boolean summarized(Holdings holdings, KeySummaries summaries, long key) {
        boolean flagged = (holdings.head(key) & Holdings.SUMMARY) != 0;
        assertThat(summaries.get(key) != null).as("summary and flag agree").isEqualTo(flagged);
        return flagged;
    }
}
