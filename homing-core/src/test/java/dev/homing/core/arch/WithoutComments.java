package dev.homing.core.arch;

/**
 * A Java source's code without its comments (line and block, Javadoc included), so that a search of the text finds
 * only what the compiler reads. String, character and text-block literals are kept as they are: a {@code "//"} or
 * {@code "/*"} inside one starts no comment. Each comment leaves a space (a line comment its newline) behind, so no
 * two tokens run together.
 */
final class WithoutComments {

    private WithoutComments() {
    }

    static String of(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            int next;
            if (source.startsWith("//", i)) {
                next = source.indexOf('\n', i);
                next = next < 0 ? source.length() : next;
                code.append(' ');
            } else if (source.startsWith("/*", i)) {
                next = source.indexOf("*/", i + 2);
                next = next < 0 ? source.length() : next + 2;
                code.append(' ');
            } else {
                next = source.startsWith("\"\"\"", i) ? literalEnd(source, i, "\"\"\"")
                        : source.charAt(i) == '"' || source.charAt(i) == '\'' ? literalEnd(source, i,
                                String.valueOf(source.charAt(i)))
                        : i + 1;
                code.append(source, i, next);
            }
            i = next;
        }
        return code.toString();
    }

    /** Just past the literal opened at {@code start} by {@code quote}, skipping escaped characters. */
    private static int literalEnd(String source, int start, String quote) {
        int i = start + quote.length();
        while (i < source.length()) {
            if (source.charAt(i) == '\\') {
                i += 2;
            } else if (source.startsWith(quote, i)) {
                return i + quote.length();
            } else {
                i++;
            }
        }
        return source.length();
    }
}
