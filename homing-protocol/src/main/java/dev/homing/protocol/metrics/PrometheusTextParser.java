package dev.homing.protocol.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A parser for the Prometheus text exposition format (0.0.4), tolerant of the OpenMetrics additions a scraper meets
 * in practice ({@code # EOF}, exemplars, {@code _created} lines). No Java client library parses this format, so the
 * router carries its own; see the format spec at prometheus.io/docs/instrumenting/exposition_formats.
 */
public final class PrometheusTextParser {

    private PrometheusTextParser() {
    }

    public static MetricsText parse(String text) throws MetricsFormatException {
        return parse(text, name -> true);
    }

    /**
     * Parses only the samples of metrics {@code wanted} accepts; the other lines are skipped after their name (a
     * scraper that reads six gauges of a page of histograms does not build the rest).
     */
    public static MetricsText parse(String text, Predicate<String> wanted) throws MetricsFormatException {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        int lineNo = 0;
        int pos = 0;
        int len = text.length();
        while (pos < len) {
            int end = text.indexOf('\n', pos);
            if (end < 0) {
                end = len;
            }
            lineNo++;
            String line = text.substring(pos, end);
            pos = end + 1;
            if (!line.isEmpty() && line.charAt(line.length() - 1) == '\r') {
                line = line.substring(0, line.length() - 1);
            }
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.charAt(0) == '#') {
                comment(trimmed, types);
                continue;
            }
            if (!wanted.test(nameOf(trimmed))) {
                continue;
            }
            try {
                samples.add(new LineReader(trimmed).sample());
            } catch (RuntimeException e) {
                throw new MetricsFormatException("line " + lineNo + ": " + e.getMessage() + ": " + abbreviate(trimmed));
            }
        }
        return new MetricsText(samples, types);
    }

    /** The metric name a sample line starts with (up to its labels or value). */
    private static String nameOf(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
            i++;
        }
        return line.substring(0, i);
    }

    private static void comment(String line, Map<String, String> types) {
        String[] parts = line.substring(1).strip().split("\\s+", 3);
        if (parts.length == 3 && parts[0].equals("TYPE")) {
            types.put(parts[1], parts[2].strip());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    /** Reads one sample line: {@code name[{labels}] value [timestamp] [# exemplar]}. */
    private static final class LineReader {
        private final String s;
        private int i;

        LineReader(String s) {
            this.s = s;
        }

        Sample sample() {
            String name = name();
            Map<String, String> labels = Map.of();
            skipSpaces();
            if (i < s.length() && s.charAt(i) == '{') {
                labels = labels();
            }
            skipSpaces();
            double value = number(token());
            long ts = Sample.NO_TIMESTAMP;
            skipSpaces();
            if (i < s.length() && s.charAt(i) != '#') {
                String t = token();
                try {
                    ts = (long) Double.parseDouble(t);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad timestamp '" + t + "'");
                }
            }
            return new Sample(name, labels, value, ts);
        }

        private String name() {
            int start = i;
            while (i < s.length()) {
                char c = s.charAt(i);
                boolean ok = c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                        || (i > start && c >= '0' && c <= '9');
                if (!ok) {
                    break;
                }
                i++;
            }
            if (i == start) {
                throw new IllegalArgumentException("expected a metric name");
            }
            return s.substring(start, i);
        }

        private Map<String, String> labels() {
            Map<String, String> labels = new LinkedHashMap<>();
            i++; // '{'
            while (true) {
                skipSpaces();
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated label set");
                }
                if (s.charAt(i) == '}') {
                    i++;
                    return labels;
                }
                String key = name();
                skipSpaces();
                expect('=');
                skipSpaces();
                labels.put(key, quoted());
                skipSpaces();
                if (i < s.length() && s.charAt(i) == ',') {
                    i++;
                }
            }
        }

        private String quoted() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated label value");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    if (i >= s.length()) {
                        throw new IllegalArgumentException("dangling escape");
                    }
                    char e = s.charAt(i++);
                    b.append(switch (e) {
                        case 'n' -> '\n';
                        case '\\' -> '\\';
                        case '"' -> '"';
                        default -> throw new IllegalArgumentException("bad escape \\" + e);
                    });
                } else {
                    b.append(c);
                }
            }
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + (i + 1));
            }
            i++;
        }

        private void skipSpaces() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        private String token() {
            int start = i;
            while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                i++;
            }
            if (start == i) {
                throw new IllegalArgumentException("expected a value");
            }
            return s.substring(start, i);
        }

        private static double number(String t) {
            return switch (t) {
                case "+Inf", "Inf", "+inf", "inf" -> Double.POSITIVE_INFINITY;
                case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
                case "NaN", "nan" -> Double.NaN;
                default -> {
                    try {
                        yield Double.parseDouble(t);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("bad value '" + t + "'");
                    }
                }
            };
        }
    }
}
