package dev.homing.bench.policy;

import static dev.homing.bench.policy.Requests.repeat;
import static dev.homing.bench.policy.Requests.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.workload.Prompt;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hand-made cases on the code paths of vllm-project/production-stack 008a23b routing_logic.py
 * ({@code PrefixAwareRouter.route_request}) and 35e4ad3 prefix/hashtrie.py ({@code HashTrie}).
 */
class ProductionStackPrefixAwareTest {

    private static final String A = repeat('a', 128);
    private static final String B = repeat('b', 128);
    private static final String C = repeat('c', 128);

    private static ProductionStackPrefixAware policy(int pods, long seed) {
        return new ProductionStackPrefixAware(pods, new SplittableRandom(seed));
    }

    private static long[] chunks(ProductionStackPrefixAware p, String s) {
        return p.trie().chunkHashes(s);
    }

    @Test
    void chunksAre128CharactersHashedAloneWithXxh64SeedZero() {
        ChunkHashTrie t = new ChunkHashTrie(128, 100);
        // XXH64 reference vectors (seed 0), as Python's xxhash.xxh64(s).intdigest() gives them.
        assertThat(t.chunkHashes("abc")).containsExactly(0x44BC2CF5AD770999L);
        assertThat(t.chunkHashes(A + "abc")).hasSize(2).endsWith(0x44BC2CF5AD770999L);
        assertThat(t.chunkHashes("")).isEmpty();
    }

    @Test
    void hit_theDeepestMatchedSetWinsForEverySeed() {
        for (long seed = 0; seed < 16; seed++) {
            ProductionStackPrefixAware p = policy(4, seed);
            p.trie().insert(chunks(p, A + B), 0);
            p.trie().insert(chunks(p, A), 1);
            // A matches {0, 1}, then B narrows to {0}; C has no child: stop.
            assertThat(p.choose(chunks(p, A + B + C))).isZero();
        }
    }

    @Test
    void tie_randomAmongTheDeepestMatchedSetOnly() {
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            ProductionStackPrefixAware p = policy(4, seed);
            p.trie().insert(chunks(p, A + B), 1);
            p.trie().insert(chunks(p, A + C), 2);
            seen.add(p.choose(chunks(p, A + repeat('z', 10)))); // A: {1, 2}; the partial chunk has no child
        }
        assertThat(seen).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void miss_anyEndpointAtRandom() {
        Set<Integer> seen = new HashSet<>();
        for (long seed = 0; seed < 64; seed++) {
            ProductionStackPrefixAware p = policy(4, seed);
            p.trie().insert(chunks(p, A), 0);
            seen.add(p.choose(chunks(p, B)));
        }
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aPartialLastChunkIsHashedAndInsertedSoOnlyTheSameTailMatchesIt() {
        ProductionStackPrefixAware p = policy(2, 1);
        p.trie().insert(chunks(p, A + "tail"), 0);
        assertThat(p.trie().longestPrefixMatch(chunks(p, A + "tail"), 0b11).matchedChars()).isEqualTo(256);
        assertThat(p.trie().longestPrefixMatch(chunks(p, A + "tai"), 0b11).matchedChars()).isEqualTo(128);
    }

    @Test
    void noLoadTerm_aSharedPrefixStaysOnItsFirstEndpointHoweverManyRequestsItHolds() {
        ProductionStackPrefixAware p = policy(4, 7);
        int home = p.place(text(A + B + "q0")).pod();
        for (int i = 1; i < 50; i++) {
            assertThat(p.place(text(A + B + "q" + i)).pod()).isEqualTo(home); // none of them finished
        }
        assertThat(p.trie().longestPrefixMatch(chunks(p, A + B), 0b1111).endpoints()).isEqualTo(1L << home);
    }

    @Test
    void chatsAreTheirContentsJoinedByNewlines() {
        Prompt chat = Prompt.chat(List.of(new Prompt.Message("system", "be brief"),
                new Prompt.Message("user", ""), new Prompt.Message("user", "hi")), new int[] {1});
        assertThat(ProductionStackPrefixAware.prompt(chat)).isEqualTo("be brief\n\nhi");
    }

    @Test
    void theLabsBoundEvictsTheLeastRecentlyInsertedLeavesFirst() {
        ChunkHashTrie t = new ChunkHashTrie(128, 4);
        t.insert(t.chunkHashes(A + B), 0);                 // 2 nodes
        t.insert(t.chunkHashes(C + A), 1);                 // 4 nodes
        assertThat(t.nodes()).isEqualTo(4);
        t.insert(t.chunkHashes(C + B), 1);                 // 5 > 4: down to 3, oldest leaves first: A+B's
        assertThat(t.nodes()).isEqualTo(3);
        assertThat(t.evicted()).isEqualTo(2);
        assertThat(t.longestPrefixMatch(t.chunkHashes(A + B), 0b11).matchedChars()).isZero();
        assertThat(t.longestPrefixMatch(t.chunkHashes(C + A), 0b11).matchedChars()).isEqualTo(256);
        assertThat(t.longestPrefixMatch(t.chunkHashes(C + B), 0b11).matchedChars()).isEqualTo(256);
    }
}
