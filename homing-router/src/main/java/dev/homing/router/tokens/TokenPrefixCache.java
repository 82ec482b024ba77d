package dev.homing.router.tokens;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.openhft.hashing.LongHashFunction;

/**
 * Tokens of prompts seen before, found again by prefix, so that a shared system prompt or a growing conversation is
 * not sent to a tokenizer again (llm-d's old {@code PrefixStore}: 256-byte chunks, a prefix that covers at least
 * {@code minOverlap} of the prompt is enough). Routing only needs the blocks a prompt shares with earlier ones, so the
 * tokens of the shared prefix stand for the whole prompt.
 *
 * <p>Text prompts are cut into 256-byte chunks whose token counts are known from the tokenizer's token strings;
 * chat prompts are cut at message boundaries. Each stored prompt keeps its token array once; chunk and message keys
 * point into it. Bounded by a total token budget; the least recently used prompt goes first, with its keys.
 * Thread-safe.
 */
public final class TokenPrefixCache {

    static final int CHUNK_BYTES = 256;
    private static final LongHashFunction XX = LongHashFunction.xx();

    private final long maxTokens;
    private final double minOverlap;
    private final LinkedHashMap<Long, Stored> prompts = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<Long, Ref> prefixes = new HashMap<>();
    private long tokens;

    /** One prompt's tokens and the prefix keys that point into them. */
    private static final class Stored {
        final long key;
        final int[] tokens;
        final List<Long> keys = new ArrayList<>();

        Stored(long key, int[] tokens) {
            this.key = key;
            this.tokens = tokens;
        }
    }

    /** A prefix of a stored prompt: the first {@code count} of its tokens. */
    private record Ref(Stored prompt, int count) {
    }

    /**
     * @param maxTokens  the most tokens kept, over all prompts
     * @param minOverlap the share of a prompt (in bytes) a cached prefix must cover to stand for it
     */
    public TokenPrefixCache(long maxTokens, double minOverlap) {
        this.maxTokens = maxTokens;
        this.minOverlap = minOverlap;
    }

    /** The tokens for a text prompt, or null when no cached prefix covers enough of it. */
    public int[] lookupText(String model, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long whole = XX.hashLong(root(model) ^ XX.hashBytes(bytes));
        synchronized (this) {
            Stored exact = prompts.get(whole);
            if (exact != null) {
                return exact.tokens.clone();
            }
            long h = root(model);
            Ref best = null;
            int bestBytes = 0;
            for (int end = CHUNK_BYTES; end <= bytes.length; end += CHUNK_BYTES) {
                h = chunk(h, bytes, end - CHUNK_BYTES, CHUNK_BYTES);
                Ref r = prefixes.get(h);
                if (r == null) {
                    break;
                }
                best = r;
                bestBytes = end;
            }
            return covered(best, bestBytes, bytes.length);
        }
    }

    /**
     * Remembers a text prompt's tokens.
     *
     * @param tokenStrings each token's text as the tokenizer gives it ({@code /tokenize}'s {@code token_strs}), to find
     *                     where each token ends; null stores the prompt for exact repeats only
     */
    public void storeText(String model, String text, int[] tokens, List<String> tokenStrings) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int[] ends = tokenStrings == null ? null : tokenEnds(bytes, tokenStrings, tokens.length);
        synchronized (this) {
            long whole = XX.hashLong(root(model) ^ XX.hashBytes(bytes));
            Stored s = new Stored(whole, tokens.clone());
            if (!put(s)) {
                return;
            }
            if (ends != null) {
                long h = root(model);
                int t = 0;
                for (int end = CHUNK_BYTES; end <= bytes.length; end += CHUNK_BYTES) {
                    while (t < ends.length && ends[t] >= 0 && ends[t] <= end) {
                        t++;
                    }
                    if (t < ends.length && ends[t] < 0) {
                        break; // token strings stopped lining up with the text: no chunk past here is trusted
                    }
                    h = chunk(h, bytes, end - CHUNK_BYTES, CHUNK_BYTES);
                    prefixes.put(h, new Ref(s, t));
                    s.keys.add(h);
                }
            }
            evict();
        }
    }

    /**
     * Where each token ends in the text's bytes, from the token strings; -1 from the first token that does not line
     * up (byte-fallback pieces, an added BOS that the text does not contain are skipped as zero-width).
     */
    static int[] tokenEnds(byte[] text, List<String> tokenStrings, int tokenCount) {
        int[] ends = new int[Math.min(tokenCount, tokenStrings.size())];
        int pos = 0;
        for (int i = 0; i < ends.length; i++) {
            String s = tokenStrings.get(i);
            byte[] piece = s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
            if (piece.length > 0 && startsWith(text, pos, piece)) {
                pos += piece.length;
                ends[i] = pos;
            } else if (i == 0 && s != null && s.startsWith("<") && s.endsWith(">")) {
                ends[i] = pos; // a special token the tokenizer put in front (BOS)
            } else {
                Arrays.fill(ends, i, ends.length, -1);
                break;
            }
        }
        return ends;
    }

    private static boolean startsWith(byte[] text, int pos, byte[] piece) {
        if (pos + piece.length > text.length) {
            return false;
        }
        for (int i = 0; i < piece.length; i++) {
            if (text[pos + i] != piece[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A chat's messages keyed once per request: the key of each prefix of the conversation (its first 1, 2, ...
     * messages) and that prefix's length in bytes, hashed from the request body in place.
     */
    public static final class Conversation {
        private final long[] keys;
        private final long[] bytes;

        private Conversation(long[] keys, long[] bytes) {
            this.keys = keys;
            this.bytes = bytes;
        }

        /**
         * @param json  the bytes holding the messages
         * @param spans each message's JSON as a pair (start, end) of offsets into {@code json}, in order
         */
        public static Conversation of(String model, byte[] json, int[] spans) {
            int n = spans.length / 2;
            long[] keys = new long[n];
            long[] bytes = new long[n];
            long h = root(model) ^ 0x6368_6174L;
            long total = 0;
            for (int i = 0; i < n; i++) {
                int start = spans[2 * i];
                int length = spans[2 * i + 1] - start;
                h = chunk(h, json, start, length);
                total += length;
                keys[i] = h;
                bytes[i] = total;
            }
            return new Conversation(keys, bytes);
        }

        /** Messages in the conversation. */
        public int size() {
            return keys.length;
        }
    }

    /** The tokens for a chat, or null when no cached conversation prefix covers enough of it. */
    public synchronized int[] lookup(Conversation c) {
        for (int i = c.size() - 1; i >= 0; i--) {
            Ref r = prefixes.get(c.keys[i]);
            if (r != null) {
                return covered(r, c.bytes[i], c.bytes[c.size() - 1]);
            }
        }
        return null;
    }

    /** Remembers the tokens of a conversation's first {@code messages} messages (without the generation prompt). */
    public void store(Conversation c, int messages, int[] tokens) {
        long key = c.keys[messages - 1];
        synchronized (this) {
            Stored s = new Stored(key, tokens.clone());
            if (!put(s)) {
                return;
            }
            prefixes.put(key, new Ref(s, tokens.length));
            s.keys.add(key);
            evict();
        }
    }

    /** Whether a conversation of exactly the first {@code messages} messages is cached. */
    public synchronized boolean has(Conversation c, int messages) {
        return prefixes.containsKey(c.keys[messages - 1]);
    }

    private int[] covered(Ref best, long bestBytes, long totalBytes) {
        if (best == null || totalBytes == 0 || (double) bestBytes / totalBytes < minOverlap || best.count() == 0) {
            return null;
        }
        prompts.get(best.prompt().key); // touch: a hit keeps the prompt fresh
        return Arrays.copyOf(best.prompt().tokens, best.count());
    }

    private boolean put(Stored s) {
        if (s.tokens.length > maxTokens) {
            return false;
        }
        Stored old = prompts.put(s.key, s);
        if (old != null) {
            forget(old);
        }
        tokens += s.tokens.length;
        return true;
    }

    private void evict() {
        var it = prompts.entrySet().iterator();
        while (tokens > maxTokens && it.hasNext()) {
            Stored s = it.next().getValue();
            it.remove();
            forget(s);
        }
    }

    private void forget(Stored s) {
        tokens -= s.tokens.length;
        for (Long k : s.keys) {
            Ref r = prefixes.get(k);
            if (r != null && r.prompt() == s) {
                prefixes.remove(k);
            }
        }
    }

    /** Tokens held, over every cached prompt. */
    public synchronized long tokens() {
        return tokens;
    }

    private static long root(String model) {
        return XX.hashBytes(model.getBytes(StandardCharsets.UTF_8));
    }

    private static long chunk(long prev, byte[] bytes, int offset, int length) {
        return XX.hashLong(prev ^ XX.hashBytes(bytes, offset, length));
    }
}
