package dev.homing.router.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.homing.router.fixtures.TestCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The bad-input corpus, read from {@code bad-input/corpus.yaml} (whose head documents the format): the router's body
 * limit it assumes, and its cases with their bytes expanded. A mistake in the file fails loudly, naming the case.
 */
record BadInputCorpus(int maxBodyBytes, List<BadInputCase> cases) {

    static final String RESOURCE = "/bad-input/corpus.yaml";

    private static final String LENGTH = "{{length}}";
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] END_OF_HEAD = {'\r', '\n', '\r', '\n'};
    private static final Set<String> CASE_KEYS = Set.of("name", "why", "body", "path", "method", "content-type",
            "headers", "send", "client", "expect");
    private static final Set<String> EXPECT_KEYS = Set.of("status", "type", "param", "close", "forwarded", "headers");

    static BadInputCorpus load() {
        JsonNode root;
        try (InputStream in = BadInputCorpus.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the test class path");
            }
            root = new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<BadInputCase> cases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode c : root.path("cases")) {
            String name = c.path("name").asText("");
            try {
                BadInputCase read = read(c);
                if (!names.add(name)) {
                    throw new IllegalArgumentException("the name is taken by another case");
                }
                cases.add(read);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(RESOURCE + ", case '" + name + "': " + e.getMessage(), e);
            }
        }
        int maxBodyBytes = root.path("router").path("max-body-bytes").intValue();
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException(RESOURCE + ": router.max-body-bytes is missing");
        }
        return new BadInputCorpus(maxBodyBytes, List.copyOf(cases));
    }

    private static BadInputCase read(JsonNode c) {
        unknownKeys(c, CASE_KEYS);
        String name = c.path("name").asText("");
        if (!name.matches("[a-z0-9.-]+")) {
            throw new IllegalArgumentException("a name is kebab-case");
        }
        if (c.has("body") == c.has("send")) {
            throw new IllegalArgumentException("give `body` or `send`, one of them");
        }
        List<Part> parts = c.has("body") ? jsonRequest(c) : parts(c.get("send"));
        BadInputCase.Client client = client(c.path("client"));
        BadInputCase.Expected expected = expected(c.path("expect"));
        if (expected.close() == BadInputCase.Close.NO && client != BadInputCase.Client.WRITE) {
            throw new IllegalArgumentException("a kept connection serves the next request only after a whole one");
        }
        return new BadInputCase(name, c.path("why").asText(""), resolve(parts), client, expected);
    }

    /** A {@code body} case: the body sent as a POST with its Content-Length, the head as the case says. */
    private static List<Part> jsonRequest(JsonNode c) {
        StringBuilder head = new StringBuilder()
                .append(c.path("method").asText("POST")).append(' ')
                .append(c.path("path").asText("/v1/completions")).append(" HTTP/1.1\\r\\nHost: r\\r\\n")
                .append("Content-Type: ").append(c.path("content-type").asText("application/json")).append("\\r\\n");
        for (JsonNode line : c.path("headers")) {
            head.append(line.asText()).append("\\r\\n");
        }
        head.append("Content-Length: ").append(LENGTH).append("\\r\\n\\r\\n");
        List<Part> out = new ArrayList<>();
        out.add(new Bytes(bytes(head.toString()), false));
        out.addAll(parts(c.get("body")));
        return out;
    }

    /** A piece as read: bytes to write, or a fill whose size waits for the other pieces. */
    private sealed interface Part {
    }

    private record Bytes(byte[] bytes, boolean slowly) implements Part {
    }

    private record Fill(byte with, int to) implements Part {
    }

    /** The parts of {@code body} or {@code send}. */
    private static List<Part> parts(JsonNode node) {
        List<Part> out = new ArrayList<>();
        for (JsonNode p : node.isArray() ? node : List.of(node)) {
            if (p.isTextual()) {
                out.add(new Bytes(bytes(p.asText()), false));
            } else if (p.has("repeat")) {
                out.add(new Bytes(repeat(bytes(p.get("repeat").asText()), count(p.get("times"))), false));
            } else if (p.has("chunk")) {
                byte[] data = repeat(bytes(p.get("chunk").asText()), p.has("times") ? count(p.get("times")) : 1);
                ByteArrayOutputStream chunk = new ByteArrayOutputStream(data.length + 32);
                chunk.writeBytes(Integer.toHexString(data.length).getBytes(StandardCharsets.US_ASCII));
                chunk.writeBytes(bytes(p.path("ext").asText("")));
                chunk.writeBytes(CRLF);
                chunk.writeBytes(data);
                chunk.writeBytes(CRLF);
                out.add(new Bytes(chunk.toByteArray(), false));
            } else if (p.has("fill")) {
                byte[] with = bytes(p.get("fill").asText());
                if (with.length != 1) {
                    throw new IllegalArgumentException("a fill is one byte");
                }
                out.add(new Fill(with[0], count(p.get("to"))));
            } else if (p.has("slowly")) {
                out.add(new Bytes(bytes(p.get("slowly").asText()), true));
            } else {
                throw new IllegalArgumentException("a piece is a string, repeat, chunk, fill or slowly: " + p);
            }
        }
        return out;
    }

    /**
     * The pieces to write: a fill made the size that brings the body to its {@code to}, then the body's length written
     * where the head says {@code {{length}}}. The body is what follows the head's empty line.
     */
    private static List<BadInputCase.Piece> resolve(List<Part> parts) {
        List<Fill> fills = parts.stream().filter(Fill.class::isInstance).map(Fill.class::cast).toList();
        if (fills.size() > 1) {
            throw new IllegalArgumentException("one fill per case");
        }
        List<BadInputCase.Piece> out = new ArrayList<>();
        for (Part p : parts) {
            if (p instanceof Bytes b) {
                out.add(new BadInputCase.Piece(b.bytes(), b.slowly()));
            }
        }
        if (!fills.isEmpty()) {
            Fill fill = fills.getFirst();
            int missing = fill.to() - bodyLength(out);
            if (missing < 0) {
                throw new IllegalArgumentException("the body is " + (-missing) + " bytes over the fill's size already");
            }
            out.add(parts.indexOf(fill), new BadInputCase.Piece(repeat(new byte[] {fill.with()}, missing), false));
        }
        byte[] marker = LENGTH.getBytes(StandardCharsets.US_ASCII);
        byte[] length = Integer.toString(bodyLength(out)).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < out.size(); i++) {
            byte[] b = out.get(i).bytes();
            int at = indexOf(b, marker);
            if (at >= 0) {
                ByteArrayOutputStream replaced = new ByteArrayOutputStream(b.length);
                replaced.write(b, 0, at);
                replaced.writeBytes(length);
                replaced.write(b, at + marker.length, b.length - at - marker.length);
                out.set(i, new BadInputCase.Piece(replaced.toByteArray(), out.get(i).slowly()));
            }
        }
        return List.copyOf(out);
    }

    /** What follows the first empty line, or everything when there is none. */
    private static int bodyLength(List<BadInputCase.Piece> pieces) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        pieces.forEach(p -> all.writeBytes(p.bytes()));
        byte[] b = all.toByteArray();
        int end = indexOf(b, END_OF_HEAD);
        return end < 0 ? b.length : b.length - end - END_OF_HEAD.length;
    }

    private static BadInputCase.Client client(JsonNode node) {
        return switch (node.asText("write")) {
            case "write" -> BadInputCase.Client.WRITE;
            case "stop" -> BadInputCase.Client.STOP;
            case "half-close" -> BadInputCase.Client.HALF_CLOSE;
            default -> throw new IllegalArgumentException("client is write, stop or half-close: " + node.asText());
        };
    }

    private static BadInputCase.Expected expected(JsonNode e) {
        if (!e.isObject()) {
            throw new IllegalArgumentException("`expect` is missing");
        }
        unknownKeys(e, EXPECT_KEYS);
        JsonNode status = e.path("status");
        if ("none".equals(status.asText())) {
            if (e.size() != 1) {
                throw new IllegalArgumentException("with `status: none` there is nothing else to expect");
            }
            return new BadInputCase.Expected(null, null, null, BadInputCase.Close.YES, false, Map.of());
        }
        if (!status.canConvertToInt() || status.intValue() < 100 || status.intValue() > 599) {
            throw new IllegalArgumentException("status is an HTTP status or none: " + status);
        }
        int code = status.intValue();
        BadInputCase.Close close = switch (e.path("close").asText("")) {
            case "true" -> BadInputCase.Close.YES;
            case "false" -> BadInputCase.Close.NO;
            case "any" -> BadInputCase.Close.ANY;
            default -> throw new IllegalArgumentException("close is true, false or any");
        };
        boolean error = code >= 400;
        if (!error && (e.has("type") || e.has("param"))) {
            throw new IllegalArgumentException("type and param are an error's");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        e.path("headers").properties()
                .forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue().asText()));
        return new BadInputCase.Expected(code, e.has("type") ? e.get("type").asText() : null,
                e.has("param") ? e.get("param").asText() : null, close,
                e.has("forwarded") ? e.get("forwarded").asBoolean() : code >= 200 && code < 300, Map.copyOf(headers));
    }

    private static void unknownKeys(JsonNode node, Set<String> known) {
        node.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) {
                throw new IllegalArgumentException("unknown key `" + k + "` (known: " + known + ")");
            }
        });
    }

    private static int count(JsonNode n) {
        if (n == null || !n.canConvertToInt() || n.intValue() < 0) {
            throw new IllegalArgumentException("a count is a whole number: " + n);
        }
        return n.intValue();
    }

    /**
     * The bytes a corpus string stands for: {@code {{model}}} replaced, then the escapes {@code \r \n \t \0 \\ \xHH};
     * any other character must be printable ASCII, so the file says exactly which bytes go on the wire.
     */
    static byte[] bytes(String text) {
        String s = text.replace("{{model}}", TestCluster.MODEL);
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch > 0x7e || (ch < 0x20 && ch != '\t')) {
                throw new IllegalArgumentException("write the byte " + (int) ch + " as an escape, in: " + text);
            }
            if (ch != '\\') {
                out.write(ch);
                continue;
            }
            if (++i == s.length()) {
                throw new IllegalArgumentException("a lone backslash ends: " + text);
            }
            switch (s.charAt(i)) {
                case 'r' -> out.write('\r');
                case 'n' -> out.write('\n');
                case 't' -> out.write('\t');
                case '0' -> out.write(0);
                case '\\' -> out.write('\\');
                case 'x' -> {
                    if (i + 2 >= s.length()) {
                        throw new IllegalArgumentException("\\x takes two hex digits, in: " + text);
                    }
                    out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> throw new IllegalArgumentException("unknown escape \\" + s.charAt(i) + " in: " + text);
            }
        }
        return out.toByteArray();
    }

    private static byte[] repeat(byte[] unit, int times) {
        byte[] out = new byte[Math.multiplyExact(unit.length, times)];
        for (int i = 0; i < times; i++) {
            System.arraycopy(unit, 0, out, i * unit.length, unit.length);
        }
        return out;
    }

    private static int indexOf(byte[] in, byte[] what) {
        outer:
        for (int i = 0; i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
