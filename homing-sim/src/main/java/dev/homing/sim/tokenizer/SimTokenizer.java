package dev.homing.sim.tokenizer;

import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A deterministic, reversible stand-in for a real tokenizer (no vocabulary files are available offline): bytes as
 * ids 0–255, a generated {@link Vocabulary} of English words and letter pieces matched greedily longest-first within
 * GPT-2-like {@link PreTokenizer pre-tokens}, UTF-8 bytes (WTF-8 for lone surrogates) for anything else, and Qwen2.5's
 * special tokens at their real ids. {@code decode(encode(s)).equals(s)} for every string. English text comes out at
 * roughly four characters per token, like real BPE vocabularies.
 *
 * <p>Immutable and thread-safe; {@link #builtin()} builds it once (about 150 k pieces).
 */
public final class SimTokenizer {

    public static final int ENDOFTEXT = 151_643;
    public static final int IM_START = 151_644;
    public static final int IM_END = 151_645;
    /** Qwen2.5's embedding size: special tokens beyond {@link #IM_END} exist but are unused here. */
    public static final int VOCAB_SIZE = 151_936;

    static final String ENDOFTEXT_TEXT = "<|endoftext|>";
    static final String IM_START_TEXT = "<|im_start|>";
    static final String IM_END_TEXT = "<|im_end|>";
    private static final String[] SPECIAL_TEXTS = {ENDOFTEXT_TEXT, IM_START_TEXT, IM_END_TEXT};

    private final Vocabulary vocabulary;
    private final int[] wordIds;

    private SimTokenizer(Vocabulary vocabulary) {
        this.vocabulary = vocabulary;
        this.wordIds = new int[vocabulary.wordCount];
        for (int i = 0; i < wordIds.length; i++) {
            wordIds[i] = 256 + i;
        }
    }

    private static final class Holder {
        static final SimTokenizer INSTANCE = new SimTokenizer(Vocabulary.build());
    }

    public static SimTokenizer builtin() {
        return Holder.INSTANCE;
    }

    public int vocabularySize() {
        return VOCAB_SIZE;
    }

    /** The token a chat model ends its turn with (Qwen2.5-Instruct's EOS). */
    public int eosTokenId() {
        return IM_END;
    }

    public boolean isSpecial(int id) {
        return id >= Vocabulary.FIRST_SPECIAL && id < VOCAB_SIZE;
    }

    public int[] encode(String text) {
        IntBuffer out = new IntBuffer(text.length() / 3 + 8);
        int segment = 0;
        int i = text.indexOf("<|");
        while (i >= 0) {
            int special = specialAt(text, i);
            if (special >= 0) {
                encodeOrdinary(text, segment, i, out);
                out.add(ENDOFTEXT + special);
                segment = i + SPECIAL_TEXTS[special].length();
                i = text.indexOf("<|", segment);
            } else {
                i = text.indexOf("<|", i + 1);
            }
        }
        encodeOrdinary(text, segment, text.length(), out);
        return out.toArray();
    }

    /** The text of {@code ids}, special tokens included; ids without a meaning here decode to nothing. */
    public String decode(int[] ids) {
        return decode(ids, 0, ids.length, false);
    }

    public String decode(int[] ids, int from, int to, boolean skipSpecialTokens) {
        StringBuilder text = new StringBuilder((to - from) * 4);
        byte[] bytes = new byte[Math.max(16, (to - from) * 4)];
        int length = 0;
        for (int k = from; k < to; k++) {
            int id = ids[k];
            if (isSpecial(id)) {
                if (!skipSpecialTokens && id <= IM_END) {
                    length = flush(bytes, length, text);
                    text.append(SPECIAL_TEXTS[id - ENDOFTEXT]);
                }
                continue;
            }
            if (id < 0 || id >= VOCAB_SIZE) {
                continue;
            }
            if (length + maxPieceLength() > bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2 + maxPieceLength());
            }
            length = appendBytes(id, bytes, length);
        }
        flush(bytes, length, text);
        return text.toString();
    }

    public Detokenizer detokenizer() {
        return new Detokenizer(this);
    }

    /** Renders a conversation with Qwen2.5's chat template; encode the result to get the prompt tokens. */
    public String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) {
        return ChatTemplate.render(messages, addGenerationPrompt);
    }

    /** How many words {@link #vocabularyWord} knows. */
    public int vocabularyWordCount() {
        return wordIds.length;
    }

    /** A common English word with a leading space, e.g. {@code " the"}: always exactly one token. */
    public String vocabularyWord(int index) {
        return vocabulary.pieces[wordIds[index]];
    }

    public int vocabularyWordId(int index) {
        return wordIds[index];
    }

    /** The ids of all {@link #vocabularyWord vocabulary words}; a copy. */
    public int[] vocabularyWordIds() {
        return wordIds.clone();
    }

    /** Text of random vocabulary words that encodes to exactly {@code tokens} tokens. */
    public String randomText(int tokens, RandomGenerator rng) {
        StringBuilder b = new StringBuilder(tokens * 6);
        for (int i = 0; i < tokens; i++) {
            b.append(vocabularyWord(rng.nextInt(wordIds.length)));
        }
        return b.toString();
    }

    int maxPieceLength() {
        return Math.max(4, vocabulary.maxPieceLength);
    }

    /** Writes the bytes of an ordinary (non-special) id at {@code bytes[length]}; returns the new length. */
    int appendBytes(int id, byte[] bytes, int length) {
        if (id < 256) {
            bytes[length] = (byte) id;
            return length + 1;
        }
        String piece = vocabulary.pieces[id];
        for (int k = 0; k < piece.length(); k++) {
            bytes[length++] = (byte) piece.charAt(k); // pieces are ASCII
        }
        return length;
    }

    private void encodeOrdinary(String text, int from, int to, IntBuffer out) {
        byte[] utf8 = new byte[4];
        int i = from;
        while (i < to) {
            int end = PreTokenizer.next(text, i, to);
            int p = i;
            while (p < end) {
                int match = longestPiece(text, p, end);
                if (match > 0) {
                    out.add(vocabulary.ids.get(text.substring(p, p + match)));
                    p += match;
                } else {
                    int cp = text.codePointAt(p);
                    int n = Wtf8.encode(cp, utf8);
                    for (int k = 0; k < n; k++) {
                        out.add(utf8[k] & 0xFF);
                    }
                    p += Character.charCount(cp);
                }
            }
            i = end;
        }
    }

    /** The length of the longest vocabulary piece at {@code text[p..end)}, or 0. */
    private int longestPiece(String text, int p, int end) {
        for (int len = Math.min(vocabulary.maxPieceLength, end - p); len >= 2; len--) {
            if (vocabulary.ids.containsKey(text.substring(p, p + len))) {
                return len;
            }
        }
        return 0;
    }

    private static int specialAt(String text, int i) {
        for (int s = 0; s < SPECIAL_TEXTS.length; s++) {
            if (text.startsWith(SPECIAL_TEXTS[s], i)) {
                return s;
            }
        }
        return -1;
    }

    private static int flush(byte[] bytes, int length, StringBuilder text) {
        Wtf8.decode(bytes, length, text, false);
        return 0;
    }

    /** A growable int array, to avoid boxing while encoding. */
    private static final class IntBuffer {
        private int[] a;
        private int n;

        IntBuffer(int capacity) {
            a = new int[Math.max(8, capacity)];
        }

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[n++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }
}
