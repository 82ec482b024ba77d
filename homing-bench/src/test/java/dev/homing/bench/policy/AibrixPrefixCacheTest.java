package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.workload.Prompt;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AibrixPrefixCacheTest {

    private static final String TEXT = "0123456789abcdef0123456789ABCDEF"; // 32 bytes: 8 blocks of 4

    private final long[] clock = {0};

    private AibrixPrefixCache policy(int pods, PrefixHashTable table) {
        return new AibrixPrefixCache(pods, () -> clock[0], new SplittableRandom(3), table,
                AibrixPrefixCache.IMBALANCE_ABS_COUNT, AibrixPrefixCache.STANDARD_DEVIATION_FACTOR);
    }

    private static PrefixHashTable table() {
        return new PrefixHashTable(4, 200_000, AibrixPrefixCache.TTL_NANOS, 42);
    }

    private static long[] hashes(PrefixHashTable t, String s) {
        return t.hashes(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theHighestMatchPercentWinsWhenLoadsAreEven() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t);
        t.add(hashes(t, TEXT.substring(0, 16)), 0, 0);   // pod 0: the first 4 of 8 blocks (50 %)
        t.add(hashes(t, TEXT), 2, 0);                    // pod 2: all 8 (100 %)
        assertThat(p.choose(hashes(t, TEXT), new int[3])).isEqualTo(2);
    }

    @Test
    void amongEqualMatchesTheLessLoadedPodWins() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t);
        t.add(hashes(t, TEXT), 0, 0);
        t.add(hashes(t, TEXT), 1, 0);
        // Counts [1, 0, 0]: mean 1/3, sd 0.577. Both holders match 100 %: the one with fewer running first.
        assertThat(p.choose(hashes(t, TEXT), new int[] {1, 0, 0})).isEqualTo(1);
        assertThat(p.choose(hashes(t, TEXT), new int[] {0, 1, 0})).isEqualTo(0);
    }

    @Test
    void theGuardIsTheMeanPlusOneSampleStandardDeviation() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t);
        t.add(hashes(t, TEXT), 0, 0);
        // [2, 1, 0]: mean 1, sample sd 1 -> 2 <= 2, the holder keeps it (a population sd, 0.816, would not).
        assertThat(p.choose(hashes(t, TEXT), new int[] {2, 1, 0})).isZero();
        // [3, 1, 0]: mean 1.33, sample sd 1.53 -> 3 > 2.86: least-request, pod 2.
        assertThat(p.choose(hashes(t, TEXT), new int[] {3, 1, 0})).isEqualTo(2);
    }

    @Test
    void aHolderAboveTheMeanPlusOneDeviationIsPassedOverForTheLeastLoaded() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t);
        int first = p.place(text(TEXT)).pod();            // cold: some pod, counts now 1 at it, 0 elsewhere
        // mean 1/3 + sd 0.577 = 0.91 < 1: the holder is over the guard; least-request picks another pod.
        int second = p.place(text(TEXT)).pod();
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void withTwoPodsTheHolderStaysWithinTheGuardUntilTheImbalanceGateOpens() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(2, t);
        int holder = p.place(text(TEXT)).pod();
        for (int k = 1; k < 9; k++) {
            // counts [k, 0]: mean k/2, sd k/√2, so k ≤ 1.21k: the 100 % match stays on the holder.
            assertThat(p.place(text(TEXT)).pod()).isEqualTo(holder);
        }
        assertThat(p.running(holder)).isEqualTo(9);
        // [9, 0]: 9 − 0 > 8, only the idle pod is considered; it holds nothing, so least-request sends it there.
        assertThat(p.place(text(TEXT)).pod()).isEqualTo(1 - holder);
    }

    @Test
    void theTableEvictsTheLeastRecentlyAddedBlockAndLookupsDoNotRefresh() {
        PrefixHashTable t = new PrefixHashTable(4, 3, AibrixPrefixCache.TTL_NANOS, 7);
        long[] a = hashes(t, "aaaabbbb");                 // 2 blocks
        long[] c = hashes(t, "ccccdddd");
        t.add(a, 0, 0);
        assertThat(t.podsOf(a[0])).isEqualTo(1L);
        t.add(c, 1, 1);                                   // 4 blocks > 3: a[0], added first, leaves
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.podsOf(a[0])).isZero();
        assertThat(t.podsOf(a[1])).isEqualTo(1L);
        t.add(new long[] {a[1]}, 1, 2);                   // adding again refreshes and merges pods
        t.add(new long[] {123}, 0, 3);                    // evicts c[0], now the oldest
        assertThat(t.podsOf(c[0])).isZero();
        assertThat(t.podsOf(a[1])).isEqualTo(0b11L);
    }

    @Test
    void blocksNotAddedForTheTtlExpire() {
        PrefixHashTable t = new PrefixHashTable(4, 100, 1_000, 7);
        long[] a = hashes(t, "aaaabbbb");
        t.add(a, 0, 0);
        t.add(new long[] {a[1]}, 0, 600);
        t.expire(1_000);
        assertThat(t.size()).isEqualTo(2);
        t.expire(1_001);                                  // a[0] idle for 1,001 ns > 1,000
        assertThat(t.podsOf(a[0])).isZero();
        assertThat(t.podsOf(a[1])).isEqualTo(1L);
    }

    @Test
    void onlyFullBlocksAreHashedAndEachChainsOnItsParent() {
        PrefixHashTable t = table();
        assertThat(hashes(t, "abcdefg")).hasSize(1);
        assertThat(hashes(t, "abcdXXXX")[1]).isNotEqualTo(hashes(t, "zzzzXXXX")[1]);
        assertThat(hashes(t, "abcdXXXX")[0]).isEqualTo(hashes(t, "abcdYYYY")[0]);
    }

    @Test
    void chatsAreHashedAsGoMarshalsTheirMessages() {
        byte[] json = AibrixPrefixCache.message(Prompt.chat(List.of(new Prompt.Message("user", "a<b")),
                new int[] {1}));
        assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo("[{\"content\":\"a\\u003cb\",\"role\":\"user\"}]");
    }
}
