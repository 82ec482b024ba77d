package dev.homing.bench.workload;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.sim.tokenizer.ChatMessage;
import dev.homing.sim.tokenizer.SimTokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * Requests read from a JSON-lines trace, one object a line:
 * <ul>
 *   <li>{@code timestamp} (ms since the trace began; replayed divided by {@code speed}), optional {@code model},
 *       {@code max_tokens} (or {@code max_completion_tokens}, or Mooncake's {@code output_length});</li>
 *   <li>and one prompt: {@code prompt} (text, or token ids), {@code messages} (a chat; content as a string or text
 *       parts), {@code prompt_token_ids} / {@code token_ids}, or Mooncake's {@code input_length} + {@code hash_ids}
 *       (tokens synthesised per block id by {@link MooncakeBlocks}).</li>
 * </ul>
 * Token ids are the model's, so a trace that gives them is sent as ids and may not mix them with text. Records with
 * timestamps are replayed in timestamp order (ties in file order); without them, only in file order (closed loop, or
 * re-timed by {@code qps}).
 *
 * <p><b>Sessions</b>: records may name a {@code session_id} (a string or an integer, as AIPerf's Mooncake-style traces
 * and {@code homing serve --record} write it) and AIPerf's {@code delay} (ms to wait after the previous turn's answer).
 * A session's first record is sent at its timestamp; each later one only after the previous turn of its session has
 * been answered, plus a gap: its {@code delay} when given, else its timestamp minus the previous turn's timestamp
 * (both divided by {@code speed}). The recorded gap between two sends includes the recorded answer's own latency,
 * which a Mooncake record does not give, so nothing is subtracted: a replayed user waits at least as long as the
 * recorded one did, never less. A session without timestamps or delays waits only for the answer. Records without a
 * session id replay on their timestamps alone.
 */
final class TraceReplay implements ContentSource {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("file", "", "the JSON-lines trace (required)"),
            new WorkloadSpec.Parameter("speed", "1.0", "replay speed: timestamps are divided by it"),
            new WorkloadSpec.Parameter("hash_block_size", "512", "tokens per Mooncake hash id"),
            new WorkloadSpec.Parameter("output_len", "16", "max_tokens of records that give none"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SimTokenizer TOKENIZER = SimTokenizer.builtin();

    private final List<RequestContent> records;
    /** ms, in replay order; null when some record has no timestamp. */
    private final double[] timestamps;
    private final boolean tokenIds;
    /** Sessions named by the trace, numbered from 0 in replay order. */
    private final int sessions;

    TraceReplay(Parameters p, long seed) {
        String file = p.string("file");
        if (file.isEmpty()) {
            throw new IllegalArgumentException("parameter file of workload trace is required: the JSON-lines trace"
                    + " to replay");
        }
        int defaultMaxTokens = p.integer("output_len", 1);
        double speed = p.decimal("speed", 0, true);
        MooncakeBlocks blocks = new MooncakeBlocks(seed, p.integer("hash_block_size", 1));
        List<RequestContent> read = new ArrayList<>();
        List<Double> stamps = new ArrayList<>();
        List<String> sessionIds = new ArrayList<>();
        List<Double> delays = new ArrayList<>();
        boolean allStamped = true;
        int idsLine = 0;
        int textLine = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            int lineNumber = 0;
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                Line r = parse(file, lineNumber, line, blocks, defaultMaxTokens, read.size());
                if (r.tokenIds()) {
                    idsLine = idsLine == 0 ? lineNumber : idsLine;
                } else {
                    textLine = textLine == 0 ? lineNumber : textLine;
                }
                if (idsLine > 0 && textLine > 0) {
                    throw new IllegalArgumentException(where(file, Math.max(idsLine, textLine)) + "prompts are token"
                            + " ids on line " + idsLine + " but text on line " + textLine
                            + "; a trace must use one or the other");
                }
                read.add(r.content());
                stamps.add(r.timestamp());
                sessionIds.add(r.session());
                delays.add(r.delayMs());
                allStamped &= r.timestamp() != null;
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("parameter file of workload trace: no such file " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException("parameter file of workload trace: cannot read " + file + ": "
                    + e.getMessage(), e);
        }
        if (read.isEmpty()) {
            throw new IllegalArgumentException("trace " + file + " holds no records");
        }
        this.tokenIds = idsLine > 0;
        int[] order = allStamped
                ? IntStream.range(0, read.size()).boxed().sorted(Comparator.comparingDouble(stamps::get))
                        .mapToInt(Integer::intValue).toArray()
                : IntStream.range(0, read.size()).toArray();
        records = new ArrayList<>(order.length);
        timestamps = allStamped ? new double[order.length] : null;
        Map<String, int[]> open = new HashMap<>(); // session id -> {number, turns so far, replay index of the last}
        for (int i = 0; i < order.length; i++) {
            RequestContent c = read.get(order[i]);
            if (allStamped) {
                timestamps[i] = stamps.get(order[i]);
            }
            String session = sessionIds.get(order[i]);
            if (session != null) {
                int[] state = open.computeIfAbsent(session, k -> new int[] {open.size(), 0, -1});
                int turn = state[1]++;
                long gap = -1;
                Double delay = delays.get(order[i]);
                if (turn > 0 && delay != null) {
                    gap = Math.round(delay * 1e6 / speed);
                } else if (turn > 0 && allStamped) {
                    gap = Math.round((timestamps[i] - timestamps[state[2]]) * 1e6 / speed);
                }
                state[2] = i;
                c = new RequestContent(c.model(), c.prompt(), c.maxTokens(), state[0], state[0], turn, gap);
            }
            records.add(c);
        }
        sessions = open.size();
    }

    /** How many sessions the trace names (0 when no record names one). */
    int sessions() {
        return sessions;
    }

    /** Whether prompts must be sent as token ids. */
    boolean tokenIdPrompts() {
        return tokenIds;
    }

    boolean hasTimestamps() {
        return timestamps != null;
    }

    /** Record i's send time: its timestamp after the first, divided by {@code speed}. */
    long arrivalNanos(int i, double speed) {
        return Math.round((timestamps[i] - timestamps[0]) * 1e6 / speed);
    }

    @Override
    public RequestContent next(int index) {
        return records.get(index);
    }

    @Override
    public int onePass() {
        return records.size();
    }

    @Override
    public OptionalInt limit() {
        return OptionalInt.of(records.size());
    }

    /**
     * One record as read: its request, timestamp (ms, or null), whether its prompt came as token ids, its session id
     * (or null) and AIPerf's delay after the previous turn's answer (ms, or null).
     */
    private record Line(RequestContent content, Double timestamp, boolean tokenIds, String session, Double delayMs) {
    }

    private static Line parse(String file, int line, String text, MooncakeBlocks blocks, int defaultMaxTokens,
            long index) {
        JsonNode o;
        try {
            o = JSON.readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(where(file, line) + "not JSON: " + e.getOriginalMessage());
        }
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException(where(file, line) + "expected a JSON object");
        }
        Double timestamp = null;
        if (o.hasNonNull("timestamp")) {
            if (!o.get("timestamp").isNumber() || !Double.isFinite(o.get("timestamp").asDouble())) {
                throw new IllegalArgumentException(where(file, line) + "timestamp must be a number (ms)");
            }
            timestamp = o.get("timestamp").asDouble();
        }
        String session = null;
        if (o.hasNonNull("session_id")) {
            JsonNode v = o.get("session_id");
            if (!v.isTextual() && !v.isIntegralNumber()) {
                throw new IllegalArgumentException(where(file, line) + "session_id must be a string or an integer");
            }
            session = v.asText();
        }
        Double delay = null;
        if (o.hasNonNull("delay")) {
            JsonNode v = o.get("delay");
            if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
                throw new IllegalArgumentException(where(file, line) + "delay must be a number of ms, at least 0");
            }
            delay = v.asDouble();
        }
        String model = null;
        if (o.hasNonNull("model")) {
            if (!o.get("model").isTextual()) {
                throw new IllegalArgumentException(where(file, line) + "model must be a string");
            }
            model = o.get("model").asText();
        }
        int maxTokens = defaultMaxTokens;
        for (String field : new String[] {"max_tokens", "max_completion_tokens", "output_length"}) {
            if (o.hasNonNull(field)) {
                JsonNode v = o.get(field);
                if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 1) {
                    throw new IllegalArgumentException(where(file, line) + field + " must be a positive integer");
                }
                maxTokens = v.asInt();
                break;
            }
        }
        List<String> forms = new ArrayList<>();
        for (String field : new String[] {"prompt", "messages", "prompt_token_ids", "token_ids", "hash_ids"}) {
            if (o.hasNonNull(field)) {
                forms.add(field);
            }
        }
        if (forms.isEmpty() && o.hasNonNull("input_length")) {
            forms.add("input_length");
        }
        if (forms.size() != 1) {
            throw new IllegalArgumentException(where(file, line) + (forms.isEmpty() ? "no prompt" : "several prompts "
                    + forms) + "; give one of prompt, messages, prompt_token_ids, token_ids, or Mooncake's"
                    + " input_length with hash_ids");
        }
        String form = forms.getFirst();
        Prompt prompt;
        boolean ids = false;
        switch (form) {
            case "prompt" -> {
                JsonNode v = o.get("prompt");
                if (v.isTextual()) {
                    prompt = Prompt.text(v.asText(), TOKENIZER.encode(v.asText()));
                } else if (v.isArray()) {
                    prompt = idsPrompt(file, line, v, "prompt");
                    ids = true;
                } else {
                    throw new IllegalArgumentException(where(file, line) + "prompt must be a string or token ids");
                }
            }
            case "prompt_token_ids", "token_ids" -> {
                prompt = idsPrompt(file, line, o.get(form), form);
                ids = true;
            }
            case "messages" -> prompt = chat(file, line, o.get("messages"));
            default -> prompt = mooncake(file, line, o, blocks, index);
        }
        return new Line(new RequestContent(model, prompt, maxTokens, -1, -1, 0), timestamp, ids, session, delay);
    }

    private static Prompt idsPrompt(String file, int line, JsonNode v, String field) {
        if (!v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where(file, line) + field + " must be a non-empty array of token ids");
        }
        int[] tokens = new int[v.size()];
        for (int i = 0; i < tokens.length; i++) {
            JsonNode t = v.get(i);
            if (!t.isIntegralNumber() || !t.canConvertToInt() || t.asInt() < 0) {
                throw new IllegalArgumentException(where(file, line) + field + "[" + i + "] is not a token id");
            }
            tokens[i] = t.asInt();
        }
        // The text is for display only: these prompts go on the wire as ids.
        return Prompt.text(TOKENIZER.decode(tokens), tokens);
    }

    private static Prompt chat(String file, int line, JsonNode v) {
        if (!v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where(file, line) + "messages must be a non-empty array");
        }
        List<Prompt.Message> messages = new ArrayList<>(v.size());
        List<ChatMessage> template = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            JsonNode m = v.get(i);
            if (!m.isObject() || !m.path("role").isTextual()) {
                throw new IllegalArgumentException(where(file, line) + "messages[" + i + "] needs a role");
            }
            String content = content(file, line, i, m.get("content"));
            messages.add(new Prompt.Message(m.get("role").asText(), content));
            template.add(new ChatMessage(m.get("role").asText(), content));
        }
        return Prompt.chat(messages, TOKENIZER.encode(TOKENIZER.applyChatTemplate(template, true)));
    }

    /** A message's text: a string, or the text parts of a list of content parts, joined. */
    private static String content(String file, int line, int i, JsonNode c) {
        if (c == null || c.isNull()) {
            return "";
        }
        if (c.isTextual()) {
            return c.asText();
        }
        if (c.isArray()) {
            StringBuilder b = new StringBuilder();
            for (JsonNode part : c) {
                if (part.path("text").isTextual()) {
                    b.append(part.get("text").asText());
                }
            }
            return b.toString();
        }
        throw new IllegalArgumentException(where(file, line) + "messages[" + i + "].content must be a string or"
                + " content parts");
    }

    private static Prompt mooncake(String file, int line, JsonNode o, MooncakeBlocks blocks, long index) {
        long[] hashIds = new long[0];
        if (o.hasNonNull("hash_ids")) {
            JsonNode h = o.get("hash_ids");
            if (!h.isArray()) {
                throw new IllegalArgumentException(where(file, line) + "hash_ids must be an array of integers");
            }
            hashIds = new long[h.size()];
            for (int i = 0; i < hashIds.length; i++) {
                if (!h.get(i).isIntegralNumber() || !h.get(i).canConvertToLong()) {
                    throw new IllegalArgumentException(where(file, line) + "hash_ids[" + i + "] is not an integer");
                }
                hashIds[i] = h.get(i).asLong();
            }
        }
        int inputLength;
        if (o.hasNonNull("input_length")) {
            JsonNode n = o.get("input_length");
            if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1) {
                throw new IllegalArgumentException(where(file, line) + "input_length must be a positive integer");
            }
            inputLength = n.asInt();
        } else {
            throw new IllegalArgumentException(where(file, line) + "hash_ids need input_length");
        }
        TokenText t = TokenText.ofWordIds(blocks.tokens(hashIds, inputLength, index));
        return Prompt.text(t.text(), t.tokens());
    }

    private static String where(String file, int line) {
        return "trace " + file + " line " + line + ": ";
    }
}
