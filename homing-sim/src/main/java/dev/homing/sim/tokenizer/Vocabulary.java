package dev.homing.sim.tokenizer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The built-in vocabulary, generated deterministically: ids 0–255 are bytes; then every word of {@code words.txt}
 * with a leading space (so {@code " " + word} is one token), bare, and both capitalised; naive plural, past and
 * gerund forms; contractions, digits after a space and whitespace runs; all 2- and 3-letter letter pieces
 * (lowercase, capitalised, and 2-letter uppercase) with and without a leading space; and 4-letter lowercase pieces
 * until the ids reach Qwen2's first special token, so every id below it decodes to something.
 */
final class Vocabulary {

    static final int FIRST_SPECIAL = 151_643;

    /** Piece text by id; null for the byte ids below 256. */
    final String[] pieces;
    final Map<String, Integer> ids;
    final int wordCount;
    final int maxPieceLength;

    private Vocabulary(String[] pieces, Map<String, Integer> ids, int wordCount, int maxPieceLength) {
        this.pieces = pieces;
        this.ids = ids;
        this.wordCount = wordCount;
        this.maxPieceLength = maxPieceLength;
    }

    static Vocabulary build() {
        List<String> words = readWords();
        Builder b = new Builder();
        for (String w : words) {
            b.add(" " + w);
        }
        int wordCount = b.size() - 256;
        for (String w : words) {
            b.add(w);
            b.add(" " + capitalise(w));
            b.add(capitalise(w));
        }
        for (String suffix : new String[] {"s", "ed", "ing"}) {
            for (String w : words) {
                if (!w.endsWith(suffix.substring(0, 1))) {
                    b.add(" " + w + suffix);
                    b.add(w + suffix);
                }
            }
        }
        for (String c : new String[] {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"}) {
            b.add(c);
        }
        for (char d = '0'; d <= '9'; d++) {
            b.add(" " + d);
        }
        for (int n = 2; n <= 16; n++) {
            b.add(" ".repeat(n));
        }
        for (String ws : new String[] {"\n\n", "\n\n\n", "\t\t", "\r\n", " \n", ".\n", ",\n", "...", "--", "**"}) {
            b.add(ws);
        }
        for (int len = 2; len <= 3; len++) {
            for (String piece : lowercase(len)) {
                b.add(piece);
                b.add(" " + piece);
                b.add(capitalise(piece));
                b.add(" " + capitalise(piece));
            }
        }
        for (String piece : lowercase(2)) {
            String upper = piece.toUpperCase(Locale.ROOT);
            b.add(upper);
            b.add(" " + upper);
        }
        char[] four = {'a', 'a', 'a', 'a'};
        while (b.size() < FIRST_SPECIAL) {
            b.add(new String(four));
            increment(four);
        }
        return new Vocabulary(b.pieces.toArray(String[]::new), b.ids, wordCount, b.maxLength);
    }

    private static List<String> readWords() {
        InputStream in = Vocabulary.class.getResourceAsStream("words.txt");
        if (in == null) {
            throw new IllegalStateException("words.txt is missing from the classpath");
        }
        List<String> words = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String w = line.strip();
                if (!w.isEmpty() && !w.startsWith("#")) {
                    words.add(w);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return words;
    }

    private static List<String> lowercase(int length) {
        List<String> out = new ArrayList<>();
        char[] c = new char[length];
        Arrays.fill(c, 'a');
        int total = (int) Math.pow(26, length);
        for (int i = 0; i < total; i++) {
            out.add(new String(c));
            increment(c);
        }
        return out;
    }

    private static void increment(char[] c) {
        for (int i = c.length - 1; i >= 0; i--) {
            if (c[i] < 'z') {
                c[i]++;
                return;
            }
            c[i] = 'a';
        }
    }

    private static String capitalise(String w) {
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    private static final class Builder {
        final List<String> pieces = new ArrayList<>(FIRST_SPECIAL);
        final Map<String, Integer> ids = HashMap.newHashMap(FIRST_SPECIAL);
        int maxLength;

        Builder() {
            for (int i = 0; i < 256; i++) {
                pieces.add(null);
            }
        }

        void add(String piece) {
            if (piece.length() < 2 || ids.containsKey(piece)) {
                return; // single characters are byte tokens already
            }
            ids.put(piece, pieces.size());
            pieces.add(piece);
            maxLength = Math.max(maxLength, piece.length());
        }

        int size() {
            return pieces.size();
        }
    }
}
