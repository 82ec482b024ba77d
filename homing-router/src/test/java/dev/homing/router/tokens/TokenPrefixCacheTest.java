package dev.homing.router.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenPrefixCacheTest {

    /** A fake tokenizer: one token per 4-byte word "wNNN" including its trailing space. */
    private static int[] tokens(String text) {
        String[] words = text.split("(?<= )");
        int[] ids = new int[words.length];
        for (int i = 0; i < words.length; i++) {
            ids[i] = words[i].hashCode() & 0xffff;
        }
        return ids;
    }

    private static List<String> strings(String text) {
        return List.of(text.split("(?<= )"));
    }

    private static String words(int from, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            b.append(String.format("w%03d ", i % 1000));
        }
        return b.toString();
    }

    @Test
    void aCachedPrefixCoveringEnoughStandsForTheWholePrompt() {
        TokenPrefixCache cache = new TokenPrefixCache(1_000_000, 0.8);
        String system = words(0, 300); // 1500 bytes
        String first = system + words(500, 20);
        cache.storeText("m", first, tokens(first), strings(first));
        String second = system + words(700, 20); // shares 1500 of 1600 bytes
        int[] got = cache.lookupText("m", second);
        assertThat(got).isNotNull();
        // whole chunks of the shared part: 1280 bytes = 256 words of 5 bytes; their tokens, exactly
        int[] expected = tokens(second);
        assertThat(got).hasSize(256).containsExactly(java.util.Arrays.copyOf(expected, 256));
    }

    @Test
    void tooLittleOverlapOrAnotherModelMisses() {
        TokenPrefixCache cache = new TokenPrefixCache(1_000_000, 0.8);
        String system = words(0, 100);
        String first = system + words(500, 100);
        cache.storeText("m", first, tokens(first), strings(first));
        assertThat(cache.lookupText("m", system + words(900, 100))).isNull(); // half shared
        assertThat(cache.lookupText("other", first)).isNull();
        assertThat(cache.lookupText("m", first)).containsExactly(tokens(first)); // exact repeat
    }

    @Test
    void tokenStringsThatStopLiningUpStopTheChunks() {
        String text = words(0, 200);
        List<String> strs = new ArrayList<>(strings(text));
        strs.set(100, "\uFFFD"); // a byte-fallback piece: cannot be placed
        int[] ends = TokenPrefixCache.tokenEnds(text.getBytes(StandardCharsets.UTF_8), strs, strs.size());
        assertThat(ends[99]).isEqualTo(500);
        assertThat(ends[100]).isEqualTo(-1);
        assertThat(ends[199]).isEqualTo(-1);
        List<String> withBos = new ArrayList<>(strings(text));
        withBos.add(0, "<s>");
        int[] bos = TokenPrefixCache.tokenEnds(text.getBytes(StandardCharsets.UTF_8), withBos, withBos.size());
        assertThat(bos[0]).isZero();
        assertThat(bos[1]).isEqualTo(5);
    }

    @Test
    void conversationsAreFoundByTheirMessageHistory() {
        TokenPrefixCache cache = new TokenPrefixCache(1_000_000, 0.8);
        byte[] system = ("{\"role\":\"system\",\"content\":\"" + "x".repeat(2000) + "\"}").getBytes(StandardCharsets.UTF_8);
        byte[] q1 = "{\"role\":\"user\",\"content\":\"first question\"}".getBytes(StandardCharsets.UTF_8);
        byte[] q2 = "{\"role\":\"user\",\"content\":\"second\"}".getBytes(StandardCharsets.UTF_8);
        TokenPrefixCache.Conversation turn1 = conversation("m", system, q1);
        cache.store(turn1, 1, new int[] {1, 2, 3});
        assertThat(cache.lookup(turn1)).containsExactly(1, 2, 3);
        assertThat(cache.lookup(conversation("m", q1, system))).isNull();
        assertThat(cache.lookup(conversation("other", system, q1))).isNull();
        assertThat(cache.has(turn1, 1)).isTrue();
        assertThat(cache.has(turn1, 2)).isFalse();
        cache.store(turn1, 2, new int[] {1, 2, 3, 4, 5});
        // the same messages at other offsets of another body are the same conversation
        TokenPrefixCache.Conversation turn2 = conversation("m", system, q1, q2);
        assertThat(cache.lookup(turn2)).containsExactly(1, 2, 3, 4, 5);
        // a prefix that covers too little of the conversation does not stand for it
        byte[] long2 = ("{\"role\":\"user\",\"content\":\"" + "y".repeat(4000) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(cache.lookup(conversation("m", system, q1, long2))).isNull();
    }

    /** The messages as a chat request's array, with a field before it so their offsets are not 0. */
    private static TokenPrefixCache.Conversation conversation(String model, byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"model\":\"m\",\"messages\":[".getBytes(StandardCharsets.UTF_8));
        int[] spans = new int[2 * messages.length];
        for (int i = 0; i < messages.length; i++) {
            if (i > 0) {
                out.writeBytes(", ".getBytes(StandardCharsets.UTF_8));
            }
            spans[2 * i] = out.size();
            out.writeBytes(messages[i]);
            spans[2 * i + 1] = out.size();
        }
        out.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        return TokenPrefixCache.Conversation.of(model, out.toByteArray(), spans);
    }

    @Test
    void theTokenBudgetEvictsTheLeastRecentlyUsedPromptAndItsPrefixes() {
        TokenPrefixCache cache = new TokenPrefixCache(700, 0.8);
        String a = words(0, 400);
        String b = words(400, 400);
        cache.storeText("m", a, tokens(a), strings(a));
        cache.storeText("m", b, tokens(b), strings(b)); // 800 tokens > 700: a goes
        assertThat(cache.tokens()).isEqualTo(400);
        assertThat(cache.lookupText("m", a)).isNull();
        assertThat(cache.lookupText("m", b)).isNotNull();
    }
}
