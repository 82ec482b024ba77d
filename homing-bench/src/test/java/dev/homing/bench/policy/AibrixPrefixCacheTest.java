package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.workload.Prompt;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-made cases on the code paths of vllm-project/aibrix 429c45e pkg/plugins/gateway/algorithms/prefix_cache.go
 * ({@code Route}, {@code getTargetPodOnLoadImbalance}, {@code getTargetPodFromMatchedPods}) and, for the main
 * variant, 01de8a5 ({@code getTargetPodListOnLoadImbalance}). Blocks of 4 bytes in the hand-made tables.
 */
class AibrixPrefixCacheTest {

    private static final String TEXT = "0123456789abcdef0123456789ABCDEF"; // 32 bytes: 8 blocks of 4

    private final long[] clock = {0};

    private AibrixPrefixCache policy(int pods, PrefixHashTable table, AibrixSettings settings, long seed) {
        return new AibrixPrefixCache(pods, () -> clock[0], new SplittableRandom(seed), settings, table);
    }

    private AibrixPrefixCache policy(int pods, PrefixHashTable table, AibrixSettings settings) {
        return policy(pods, table, settings, 3);
    }

    private static PrefixHashTable table() {
        return new PrefixHashTable(4, 200_000, AibrixPrefixCache.TTL_NANOS, 42);
    }

    private static long[] hashes(PrefixHashTable t, String s) {
        return t.hashes(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theSettingsAreTheDeploymentsAndTheCodesFallbacks() {
        assertThat(AibrixSettings.SHIPPED).isEqualTo(new AibrixSettings("aibrix", 128,
                AibrixSettings.Gate.ABS_COUNT, 16, 0, 2));
        assertThat(AibrixSettings.CODE_DEFAULTS).isEqualTo(new AibrixSettings("aibrix-code-defaults", 4,
                AibrixSettings.Gate.ABS_COUNT, 8, 0, 1));
    }

    @Test
    void hit_theHighestMatchPercentWinsWhenLoadsAreEven() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t, AibrixSettings.SHIPPED);
        t.add(hashes(t, TEXT.substring(0, 16)), 0, 0);   // pod 0: the first 4 of 8 blocks (50 %)
        t.add(hashes(t, TEXT), 2, 0);                    // pod 2: all 8 (100 %)
        assertThat(p.choose(hashes(t, TEXT), new int[3])).isEqualTo(2);
    }

    @Test
    void hit_amongEqualMatchesTheLessLoadedPodWins() {
        PrefixHashTable t = table();
        AibrixPrefixCache p = policy(3, t, AibrixSettings.SHIPPED);
        t.add(hashes(t, TEXT), 0, 0);
        t.add(hashes(t, TEXT), 1, 0);
        assertThat(p.choose(hashes(t, TEXT), new int[] {1, 0, 0})).isEqualTo(1);
        assertThat(p.choose(hashes(t, TEXT), new int[] {0, 1, 0})).isEqualTo(0);
    }

    @Test
    void tie_equalMatchesAndCountsAreShuffledAmongTheTiedOnly() {
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            PrefixHashTable t = table();
            AibrixPrefixCache p = policy(3, t, AibrixSettings.SHIPPED, seed);
            t.add(hashes(t, TEXT), 0, 0);
            t.add(hashes(t, TEXT), 1, 0);
            seen.add(p.choose(hashes(t, TEXT), new int[3]));   // pod 2 is as idle but holds nothing
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void miss_theLeastRequestPodAtRandomAmongEqualsOnly() {
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            PrefixHashTable t = table();
            AibrixPrefixCache p = policy(3, t, AibrixSettings.SHIPPED, seed);
            seen.add(p.choose(hashes(t, TEXT), new int[] {1, 0, 0}));
        }
        assertThat(seen).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void theGuardIsTheMeanPlusFactorSampleStandardDeviations() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        // [3, 1, 0]: mean 1.33, sample sd 1.53. Factor 1 (code default): 3 > 2.86, least-request (pod 2).
        assertThat(policy(3, t, AibrixSettings.CODE_DEFAULTS).choose(hashes(t, TEXT), new int[] {3, 1, 0}))
                .isEqualTo(2);
        // Factor 2 (deployed): 3 <= 4.39, the holder keeps it.
        assertThat(policy(3, t, AibrixSettings.SHIPPED).choose(hashes(t, TEXT), new int[] {3, 1, 0})).isZero();
        // [2, 1, 0]: mean 1, sample sd 1 -> 2 <= 2 with factor 1 (a population sd, 0.816, would not).
        assertThat(policy(3, t, AibrixSettings.CODE_DEFAULTS).choose(hashes(t, TEXT), new int[] {2, 1, 0}))
                .isZero();
    }

    @Test
    void spillGate_deployedAbsCount16() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        AibrixPrefixCache p = policy(2, t, AibrixSettings.SHIPPED);
        // Two pods [k, 0]: mean k/2, sd k/√2, so the holder is always within mean + 2 sd; only the gate moves it.
        assertThat(p.choose(hashes(t, TEXT), new int[] {16, 0})).isZero();
        assertThat(p.choose(hashes(t, TEXT), new int[] {17, 0})).isEqualTo(1);
    }

    @Test
    void spillGate_codeDefaultAbsCount8() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        AibrixPrefixCache p = policy(2, t, AibrixSettings.CODE_DEFAULTS);
        assertThat(p.choose(hashes(t, TEXT), new int[] {8, 0})).isZero();
        assertThat(p.choose(hashes(t, TEXT), new int[] {9, 0})).isEqualTo(1);
    }

    @Test
    void spillGate_theAbsGateSkipsMatchingEvenWhenALeastLoadedPodHoldsThePrefix() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        t.add(hashes(t, TEXT.substring(0, 8)), 1, 0);     // pod 1 holds 2 of 8 blocks
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            // [17, 0, 0]: imbalanced; 429c45e falls back to least-request over pods 1 and 2 without matching.
            seen.add(policy(3, t, AibrixSettings.SHIPPED, seed).choose(hashes(t, TEXT), new int[] {17, 0, 0}));
        }
        assertThat(seen).containsExactlyInAnyOrder(1, 2);
        // Main restricts matching to the least loaded instead: pod 1's 25 % wins over pod 2's nothing.
        assertThat(policy(3, t, AibrixSettings.MAIN).choose(hashes(t, TEXT), new int[] {17, 0, 0})).isEqualTo(1);
    }

    @Test
    void spillGate_mainNeedsTheMinimumGap() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        AibrixPrefixCache p = policy(3, t, AibrixSettings.MAIN);
        // [7, 0, 0]: 7 > 2·(7/3 + 1) = 6.67 but the gap 7 < 8: balanced, the holder (7 <= 2.33 + 2·4.04).
        assertThat(p.choose(hashes(t, TEXT), new int[] {7, 0, 0})).isZero();
        // [8, 0, 0]: 8 > 7.33 and gap 8 >= 8: only pods 1 and 2 are considered; neither holds it.
        assertThat(p.choose(hashes(t, TEXT), new int[] {8, 0, 0})).isNotZero();
    }

    @Test
    void spillGate_mainNeedsTheFactorOverTheMeanPlusOne() {
        PrefixHashTable t = table();
        t.add(hashes(t, TEXT), 0, 0);
        AibrixPrefixCache p = policy(3, t, AibrixSettings.MAIN);
        // [10, 0, 2]: gap 10 >= 8, mean 4: 10 <= 2·5: balanced, the holder (10 <= 4 + 2·5.29).
        assertThat(p.choose(hashes(t, TEXT), new int[] {10, 0, 2})).isZero();
        // [10, 0, 1]: mean 3.67: 10 > 9.33: imbalanced, only pod 1 (the minimum) is considered.
        assertThat(p.choose(hashes(t, TEXT), new int[] {10, 0, 1})).isEqualTo(1);
    }

    @Test
    void deployedBlocksAre128BytesSoAShorterPromptIsNeverMatched() {
        AibrixPrefixCache p = new AibrixPrefixCache(2, () -> clock[0], new SplittableRandom(3),
                AibrixSettings.SHIPPED);
        String doc = "d".repeat(256);                       // two full blocks of 128
        int home = p.place(text(doc + "q1")).pod();
        for (int i = 2; i < 10; i++) {
            assertThat(p.place(text(doc + "q" + i)).pod()).isEqualTo(home);
        }
        // 127 bytes: no full block, no hash: least-request, the other pod.
        assertThat(p.place(text("d".repeat(127))).pod()).isEqualTo(1 - home);
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
    void chatsAreTheirContentsJoinedByOneSpaceWithoutRoles() {
        Prompt chat = Prompt.chat(List.of(new Prompt.Message("system", "be brief"),
                new Prompt.Message("user", ""), new Prompt.Message("user", "a<b")), new int[] {1});
        assertThat(new String(AibrixPrefixCache.message(chat), StandardCharsets.UTF_8)).isEqualTo("be brief  a<b");
    }
}
