package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.NONE;
import static dev.homing.core.precise.Holdings.POD_SHIFT;
import static dev.homing.core.precise.Holdings.SPECULATIVE;
import static dev.homing.core.precise.Holdings.TIER_MASK;

import dev.homing.core.collect.LongKeyMap;

/**
 * The summaries of keys held many times, so that a lookup intersects bitsets instead of walking a long chain: per key,
 * a {@code long[]} whose element 0 counts its speculative holdings, followed per tier by the bitset over pod ids of the
 * pods holding the key confirmed there. A key has one while {@link Holdings}' table flags it
 * ({@link Holdings#SUMMARY}); whoever adds or removes a holding keeps the two in step. Not thread-safe.
 */
final class KeySummaries {

    /** Holdings of one key from which it gets a summary, at least; more when the pods need more than a word. */
    private static final int SUMMARY_AT = 4;

    /** Key to summary; a lookup reads it directly, one load fewer per block. */
    final LongKeyMap<long[]> byKey = new LongKeyMap<>();
    private final int tierCount;
    private final Holdings holdings;
    private final PodIds pods;

    KeySummaries(int tierCount, Holdings holdings, PodIds pods) {
        this.tierCount = tierCount;
        this.holdings = holdings;
        this.pods = pods;
    }

    /**
     * Holdings of one key from which it gets a summary: {@link #SUMMARY_AT}, or half as many as the summary has longs
     * (its count, then a word per tier and 64 pod ids), so that it costs about 16 bytes a holding.
     */
    int summaryAt() {
        return Math.max(SUMMARY_AT, (1 + tierCount * pods.words()) / 2);
    }

    long[] get(long key) {
        return byKey.get(key);
    }

    /** Gives {@code key} the summary of its chain from {@code head}. */
    void summarize(long key, int head) {
        long[] s = new long[1 + tierCount * pods.words()];
        for (int h = head; h != NONE; h = holdings.nextOfKey(h)) {
            include(s, holdings.podTier(h));
        }
        byKey.put(key, s);
    }

    void remove(long key) {
        byKey.remove(key);
    }

    int words(long[] summary) {
        return words(summary, tierCount);
    }

    /** Pod words in a summary: pods added since it was made may not have one yet. */
    static int words(long[] summary, int tierCount) {
        return (summary.length - 1) / tierCount;
    }

    /** The key's summary, grown to have a bit for {@code podId}. */
    long[] withRoom(long key, int podId) {
        long[] s = byKey.get(key);
        int words = words(s);
        if (podId >>> 6 < words) {
            return s;
        }
        int grown = pods.words();
        long[] g = new long[1 + tierCount * grown];
        g[0] = s[0];
        for (int t = 0; t < tierCount; t++) {
            System.arraycopy(s, 1 + t * words, g, 1 + t * grown, words);
        }
        byKey.put(key, g);
        return g;
    }

    /** Counts a holding in {@code s}, which has room for its pod. */
    void include(long[] s, int podTier) {
        if ((podTier & SPECULATIVE) != 0) {
            s[0]++;
        } else {
            int pod = podTier >>> POD_SHIFT;
            s[1 + (podTier & TIER_MASK) * words(s) + (pod >>> 6)] |= 1L << pod;
        }
    }

    void exclude(long[] s, int podTier) {
        if ((podTier & SPECULATIVE) != 0) {
            s[0]--;
        } else {
            int pod = podTier >>> POD_SHIFT;
            s[1 + (podTier & TIER_MASK) * words(s) + (pod >>> 6)] &= ~(1L << pod);
        }
    }

    /** Holdings a summary stands for. */
    static long count(long[] s) {
        long n = s[0];
        for (int i = 1; i < s.length; i++) {
            n += Long.bitCount(s[i]);
        }
        return n;
    }
}
