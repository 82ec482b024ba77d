package dev.homing.sim.tokenizer;

/**
 * Splits text into the pieces that vocabulary matching runs within, in the manner of GPT-2's pattern
 * ({@code 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+}): a word takes one leading space,
 * digits go one at a time (as in Qwen2), punctuation runs stay together, and a run of whitespace leaves its last space
 * to the word after it.
 */
final class PreTokenizer {

    private static final String[] CONTRACTIONS = {"re", "ve", "ll", "s", "t", "m", "d"};

    private PreTokenizer() {
    }

    /** The end of the piece starting at {@code i}; {@code i < end}. */
    static int next(String s, int i, int end) {
        int c = s.codePointAt(i);
        int n = i + Character.charCount(c);
        if (c == '\'') {
            int contraction = contractionEnd(s, n, end);
            if (contraction > n) {
                return contraction;
            }
        }
        if (c == ' ' && n < end) {
            int d = s.codePointAt(n);
            if (Character.isLetter(d)) {
                return letters(s, n, end);
            }
            if (Character.isDigit(d)) {
                return n + Character.charCount(d);
            }
            if (!Character.isWhitespace(d)) {
                return others(s, n, end);
            }
        }
        if (Character.isLetter(c)) {
            return letters(s, i, end);
        }
        if (Character.isDigit(c)) {
            return n;
        }
        if (!Character.isWhitespace(c)) {
            return others(s, i, end);
        }
        int j = n;
        while (j < end) {
            int d = s.codePointAt(j);
            if (!Character.isWhitespace(d)) {
                break;
            }
            j += Character.charCount(d);
        }
        if (j < end && j - i >= 2 && s.charAt(j - 1) == ' ') {
            return j - 1;
        }
        return j;
    }

    private static int contractionEnd(String s, int i, int end) {
        for (String suffix : CONTRACTIONS) {
            if (i + suffix.length() <= end && s.regionMatches(true, i, suffix, 0, suffix.length())) {
                return i + suffix.length();
            }
        }
        return i;
    }

    private static int letters(String s, int i, int end) {
        int j = i;
        while (j < end) {
            int d = s.codePointAt(j);
            if (!Character.isLetter(d)) {
                break;
            }
            j += Character.charCount(d);
        }
        return j;
    }

    private static int others(String s, int i, int end) {
        int j = i;
        while (j < end) {
            int d = s.codePointAt(j);
            if (Character.isLetter(d) || Character.isDigit(d) || Character.isWhitespace(d)) {
                break;
            }
            j += Character.charCount(d);
        }
        return j;
    }
}
