package dev.homing.bench.report;

/** Escaping for everything the HTML report embeds: names and parameters come from users and must stay text. */
final class Markup {

    private Markup() {
    }

    /** Safe as element text and as a quoted attribute value; control characters HTML forbids become U+FFFD. */
    static String escape(Object value) {
        String s = String.valueOf(value);
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }

    /** Shortens a label to fit {@code max} characters; the full text belongs in a {@code <title>} beside it. */
    static String fit(String s, int max) {
        return s.length() <= max ? s : s.substring(0, Math.max(1, max - 1)) + "\u2026";
    }
}
