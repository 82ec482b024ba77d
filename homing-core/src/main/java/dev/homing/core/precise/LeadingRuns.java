package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.ID_MASK;
import static dev.homing.core.precise.Holdings.NONE;
import static dev.homing.core.precise.Holdings.POD_SHIFT;
import static dev.homing.core.precise.Holdings.SPECULATIVE;
import static dev.homing.core.precise.Holdings.SUMMARY;
import static dev.homing.core.precise.Holdings.TIER_MASK;

import dev.homing.core.collect.CompactLongLongMap;
import dev.homing.core.collect.LongKeyMap;
import dev.homing.core.endpoint.EndpointState;
import java.util.Arrays;
import java.util.List;

/**
 * An {@link InMemoryPreciseIndex} lookup: every pod's run of a prompt's leading blocks, followed for all pods at once
 * as a bitset over pod ids, block by block. A block with a summary and no speculative holding intersects the runs with
 * its summary; a block held once, confirmed, is one bit; any other block walks its chain, reading speculative
 * holdings' expiries. The scratch is per pod id and reused from lookup to lookup, so that a lookup allocates nothing
 * but its result; it holds the tiers and the maps it reads per block itself rather than through their owners, one
 * load fewer each. Not thread-safe.
 */
final class LeadingRuns {

    private final Holdings holdings;
    private final LongKeyMap<long[]> summaries;
    private final CompactLongLongMap expiries;
    private final PodIds pods;
    private final int tierCount;
    private final double[] tierWeights;
    private final int[] tiersByWeight; // heaviest first
    private final int topTier;
    private final double topWeight;

    // Scratch by pod id (bitsets by word of 64 pod ids), grown to the pods there are when a lookup starts.
    private long epoch;
    private long walks;
    private long[] running = new long[1]; // pods whose run reaches the current block
    private long[] individual = new long[1]; // running pods whose score is their own (a block below the top tier)
    private long[] seen = new long[1];
    private long[] seenAt = new long[64];
    private double[] best = new double[64];
    private double[] score = new double[64];
    private long[] resultEpoch = new long[64];
    private int[] resultMatched = new int[64];
    private double[] resultScore = new double[64];

    LeadingRuns(Holdings holdings, KeySummaries summaries, SpeculativeHolds speculative, PodIds pods, Tiers tiers) {
        this.holdings = holdings;
        this.summaries = summaries.byKey;
        this.expiries = speculative.expiries;
        this.pods = pods;
        this.tierCount = tiers.count;
        this.tierWeights = tiers.weights;
        this.tiersByWeight = tiers.byWeight;
        this.topTier = tiers.top;
        this.topWeight = tiers.topWeight;
    }

    /** Fills, by candidate's snapshot index, the blocks of its run and their weighted sum (0 for pods not known). */
    void match(long[] keys, List<EndpointState> candidates, long nowNanos, int[] matched, double[] weighted) {
        int words = fit();
        long e = ++epoch;
        runs(keys, nowNanos, e, words);
        for (EndpointState c : candidates) {
            Pod p = pods.get(c.name());
            if (p != null && resultEpoch[p.id] == e) {
                matched[c.index()] = resultMatched[p.id];
                weighted[c.index()] = resultScore[p.id];
            }
        }
    }

    /** Grows the scratch to the pods there are; returns the words of a bitset over their ids. */
    private int fit() {
        while (pods.ids() > seenAt.length) {
            int n = seenAt.length * 2;
            seenAt = Arrays.copyOf(seenAt, n);
            best = Arrays.copyOf(best, n);
            score = Arrays.copyOf(score, n);
            resultEpoch = Arrays.copyOf(resultEpoch, n);
            resultMatched = Arrays.copyOf(resultMatched, n);
            resultScore = Arrays.copyOf(resultScore, n);
        }
        int words = pods.words();
        while (words > running.length) {
            running = new long[running.length * 2]; // scratch: nothing in it outlives a lookup
            individual = new long[running.length];
            seen = new long[running.length];
        }
        return words;
    }

    /**
     * Follows every pod's run of leading blocks at once, leaving each pod's result stamped with {@code e}. A run's
     * score is the sum, block by block, of each block's best tier weight; while every block of a run was on the
     * heaviest tier, that sum is the same for every such run ({@code common}), so only runs with a lighter block keep
     * their own ({@link #individual}).
     */
    private void runs(long[] keys, long nowNanos, long e, int words) {
        Arrays.fill(running, 0, words, 0);
        Arrays.fill(individual, 0, words, 0);
        double common = 0;
        int i = 0;
        for (; i < keys.length; i++) {
            int first = holdings.head(keys[i]);
            if (first == 0) {
                break;
            }
            boolean any;
            if ((first & SUMMARY) != 0) {
                long[] s = summaries.get(keys[i]);
                any = s[0] == 0 ? intersect(s, i, common, words, e)
                        : walk(first & ID_MASK, i, common, words, nowNanos, e);
            } else {
                int h = first & ID_MASK;
                int pt = holdings.podTier(h);
                any = holdings.nextOfKey(h) == NONE && (pt & SPECULATIVE) == 0
                        ? single(pt, i, common, words, e)
                        : walk(h, i, common, words, nowNanos, e);
            }
            if (!any) {
                return; // every run ended here, and was finished
            }
            common += topWeight;
        }
        for (int w = 0; w < words; w++) {
            for (long b = running[w]; b != 0; b &= b - 1) {
                finish((w << 6) | Long.numberOfTrailingZeros(b), i, common, e);
            }
        }
    }

    /** Block {@code i}, from its summary. Returns whether any run reaches it. */
    private boolean intersect(long[] s, int i, double common, int words, long e) {
        int sw = KeySummaries.words(s, tierCount);
        boolean any = false;
        for (int w = 0; w < words; w++) {
            long run = i == 0 ? -1L : running[w];
            if (run == 0) {
                continue;
            }
            long held = 0;
            long top = 0;
            if (w < sw) {
                for (int t = 0; t < tierCount; t++) {
                    held |= s[1 + t * sw + w];
                }
                top = s[1 + topTier * sw + w];
            }
            long next = run & held;
            if (i > 0) {
                for (long ended = run & ~next; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
            }
            running[w] = next;
            if (next == 0) {
                continue;
            }
            any = true;
            for (long b = next & top & individual[w]; b != 0; b &= b - 1) {
                score[(w << 6) | Long.numberOfTrailingZeros(b)] += topWeight;
            }
            for (long b = next & ~top; b != 0; b &= b - 1) {
                long bit = b & -b;
                double weight = 0;
                for (int k = 1; k < tierCount; k++) {
                    int t = tiersByWeight[k];
                    if ((s[1 + t * sw + w] & bit) != 0) {
                        weight = tierWeights[t];
                        break;
                    }
                }
                advance((w << 6) | Long.numberOfTrailingZeros(b), w, bit, weight, common);
            }
        }
        return any;
    }

    /** Block {@code i}, held by one pod on one tier, confirmed (the most common block). Returns whether a run reaches it. */
    private boolean single(int podTier, int i, double common, int words, long e) {
        int p = podTier >>> POD_SHIFT;
        int pw = p >>> 6;
        long bit = 1L << p;
        boolean reached = i == 0 || (running[pw] & bit) != 0;
        if (i > 0) {
            for (int w = 0; w < words; w++) {
                long ended = running[w] & (reached && w == pw ? ~bit : -1L);
                for (; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
                running[w] = 0;
            }
        }
        if (reached) {
            running[pw] = bit;
            advance(p, pw, bit, tierWeights[podTier & TIER_MASK], common);
        }
        return reached;
    }

    /** Block {@code i}, from its chain of holdings. Returns whether any run reaches it. */
    private boolean walk(int head, int i, double common, int words, long nowNanos, long e) {
        long stamp = ++walks;
        for (int h = head; h != NONE; h = holdings.nextOfKey(h)) {
            int pt = holdings.podTier(h);
            if ((pt & SPECULATIVE) != 0 && expiries.get(h, Long.MIN_VALUE) <= nowNanos) {
                continue;
            }
            int p = pt >>> POD_SHIFT;
            int w = p >>> 6;
            long bit = 1L << p;
            if (i > 0 && (running[w] & bit) == 0) {
                continue;
            }
            double weight = tierWeights[pt & TIER_MASK];
            if (seenAt[p] != stamp) {
                seenAt[p] = stamp;
                best[p] = weight;
                seen[w] |= bit;
            } else if (weight > best[p]) {
                best[p] = weight;
            }
        }
        boolean any = false;
        for (int w = 0; w < words; w++) {
            long next = seen[w];
            if (i > 0) {
                for (long ended = running[w] & ~next; ended != 0; ended &= ended - 1) {
                    finish((w << 6) | Long.numberOfTrailingZeros(ended), i, common, e);
                }
            }
            running[w] = next;
            if (next == 0) {
                continue;
            }
            seen[w] = 0;
            any = true;
            for (long b = next; b != 0; b &= b - 1) {
                int p = (w << 6) | Long.numberOfTrailingZeros(b);
                advance(p, w, b & -b, best[p], common);
            }
        }
        return any;
    }

    /** Pod {@code p}'s run takes in a block at {@code weight}; {@code common} is the score of runs all on top so far. */
    private void advance(int p, int w, long bit, double weight, double common) {
        if ((individual[w] & bit) != 0) {
            score[p] += weight;
        } else if (weight != topWeight) {
            individual[w] |= bit;
            score[p] = common + weight;
        }
    }

    /** Pod {@code p}'s run ended before block {@code i}. */
    private void finish(int p, int i, double common, long e) {
        resultEpoch[p] = e;
        resultMatched[p] = i;
        resultScore[p] = (individual[p >>> 6] & (1L << p)) != 0 ? score[p] : common;
    }
}
