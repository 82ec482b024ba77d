package dev.homing.router.tokens;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.protocol.openai.PromptShape;
import dev.homing.protocol.openai.RoutingFields;
import dev.homing.router.scrape.EndpointCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tokens a request's model server will see, asked of the pool itself: {@code POST /tokenize} on a pod serving the
 * model (vLLM's; {@code token-producer}'s {@code vllm.url} first when configured), which applies the chat template.
 * Prompts given as token ids need no call; prompts whose prefix was tokenized before come from the
 * {@link TokenPrefixCache}. For a chat, the conversation without its last message is tokenized too, in the
 * background, so the next request sharing that history or system prompt finds it cached.
 */
public final class PodTokenSource implements TokenSource, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final byte[] MODEL_FIELD = "{\"model\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] MESSAGES_FIELD = "\",\"messages\":[".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CHAT_END = "],\"add_generation_prompt\":false}".getBytes(StandardCharsets.UTF_8);

    /** Tokens kept for prefix reuse (40 MB of ints), and the share of a prompt a cached prefix must cover (llm-d's). */
    private static final long TOKEN_CACHE_TOKENS = 10_000_000;
    private static final double TOKEN_CACHE_MIN_OVERLAP = 0.8;

    private final EndpointPool pool;
    private final EndpointCatalog catalog;
    private final HttpClient client;
    private final TokenPrefixCache cache;
    private final AtomicInteger next = new AtomicInteger();
    private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong hits = new AtomicLong();
    /** The prompts this source can turn into a pod's tokens: a completion's, or a chat's messages. */
    private static final Set<PromptShape> RENDERED = EnumSet.of(PromptShape.TEXT, PromptShape.TEXT_LIST,
            PromptShape.TOKENS, PromptShape.TOKEN_LISTS, PromptShape.MESSAGES);
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    /** The router's token source: its own HTTP/1.1 client to the pods, and the router's token prefix cache. */
    public static PodTokenSource create(EndpointPool pool, EndpointCatalog catalog, Duration connectTimeout) {
        return new PodTokenSource(pool, catalog,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build(),
                new TokenPrefixCache(TOKEN_CACHE_TOKENS, TOKEN_CACHE_MIN_OVERLAP));
    }

    /** @param client owned from here on: {@link #close} closes it */
    public PodTokenSource(EndpointPool pool, EndpointCatalog catalog, HttpClient client, TokenPrefixCache cache) {
        this.pool = pool;
        this.catalog = catalog;
        this.client = client;
        this.cache = cache;
    }

    @Override
    public Optional<int[]> tokens(InferenceRequest request, String renderUrl, Duration timeout) {
        RoutingFields f = request.fields();
        String model = request.targetModel();
        if (!RENDERED.contains(f.promptShape()) || model == null) {
            // a Responses API input or conversation items: /tokenize renders neither; the caller falls back
            return Optional.empty();
        }
        try {
            if (f.promptShape() == PromptShape.TOKENS || f.promptShape() == PromptShape.TOKEN_LISTS) {
                hits.incrementAndGet();
                return Optional.of(tokenIds(f));
            }
            if (f.promptShape() == PromptShape.MESSAGES) {
                int[] spans = f.messageSpans();
                TokenPrefixCache.Conversation c = TokenPrefixCache.Conversation.of(model, f.body(), spans);
                int[] cached = cache.lookup(c);
                if (cached != null) {
                    hits.incrementAndGet();
                    return Optional.of(cached);
                }
                int n = c.size();
                Optional<int[]> t = tokenize(chatBody(model, f.body(), spans, n), renderUrl, timeout, model)
                        .map(tok -> tok.ids);
                if (t.isPresent() && n > 0) {
                    cache.store(c, n, t.get());
                    if (n > 1 && !cache.has(c, n - 1)) {
                        warmHistory(model, f.body(), spans, c, renderUrl, timeout);
                    }
                }
                return t;
            }
            String text = firstText(f);
            int[] cached = cache.lookupText(model, text);
            if (cached != null) {
                hits.incrementAndGet();
                return Optional.of(cached);
            }
            ObjectNode body = JSON.createObjectNode();
            body.put("model", model);
            body.put("prompt", text);
            body.put("return_token_strs", true);
            Optional<Tokenized> t = tokenize(JSON.writeValueAsBytes(body), renderUrl, timeout, model);
            t.ifPresent(tok -> cache.storeText(model, text, tok.ids, tok.strings));
            return t.map(tok -> tok.ids);
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            return Optional.empty();
        }
    }

    private void warmHistory(String model, byte[] json, int[] spans, TokenPrefixCache.Conversation c,
                             String renderUrl, Duration timeout) {
        int history = c.size() - 1;
        byte[] body = chatBody(model, json, spans, history);
        background.execute(() -> tokenize(body, renderUrl, timeout, model)
                .ifPresent(t -> cache.store(c, history, t.ids)));
    }

    /**
     * A {@code /tokenize} body for the first {@code count} messages, their JSON copied as the client sent it.
     * The conversation as it stands: the generation prompt only adds a partial last block, and leaving it out lets
     * the next turn, which extends this conversation, reuse these tokens.
     */
    private static byte[] chatBody(String model, byte[] json, int[] spans, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + (count == 0 ? 0 : spans[2 * count - 1] - spans[0]));
        out.writeBytes(MODEL_FIELD);
        out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(model));
        out.writeBytes(MESSAGES_FIELD);
        if (count > 0) {
            // the messages and the separators between them, exactly as in the request
            out.write(json, spans[0], spans[2 * count - 1] - spans[0]);
        }
        out.writeBytes(CHAT_END);
        return out.toByteArray();
    }

    /** Tokens and, for text, each token's text. */
    private record Tokenized(int[] ids, List<String> strings) {
    }

    private Optional<Tokenized> tokenize(byte[] bytes, String renderUrl, Duration timeout, String model) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> bases = new ArrayList<>(2);
        if (renderUrl != null) {
            bases.add(renderUrl.endsWith("/") ? renderUrl.substring(0, renderUrl.length() - 1) : renderUrl);
        }
        pod(model).ifPresent(e -> bases.add("http://" + e.endpoint().address()));
        for (String base : bases) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                calls.incrementAndGet();
                HttpResponse<byte[]> res = client.send(HttpRequest.newBuilder(URI.create(base + "/tokenize"))
                                .timeout(Duration.ofNanos(left)).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (res.statusCode() != 200) {
                    continue;
                }
                JsonNode out = JSON.readTree(res.body());
                JsonNode tokens = out.path("tokens");
                int[] ids = new int[tokens.size()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = tokens.get(i).asInt();
                }
                List<String> strings = null;
                if (out.path("token_strs").isArray()) {
                    strings = new ArrayList<>(ids.length);
                    for (JsonNode s : out.path("token_strs")) {
                        strings.add(s.isNull() ? null : s.asText());
                    }
                }
                return Optional.of(new Tokenized(ids, strings));
            } catch (IOException e) {
                // try the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        failures.incrementAndGet();
        return Optional.empty();
    }

    /** A pod serving the model, taken in turn so tokenization load spreads. */
    private Optional<EndpointState> pod(String model) {
        List<EndpointState> all = pool.snapshot().endpoints();
        int n = all.size();
        int start = Math.floorMod(next.getAndIncrement(), Math.max(1, n));
        for (int i = 0; i < n; i++) {
            EndpointState e = all.get((start + i) % n);
            if (e.metrics().known() && catalog.serves(e.name(), model)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    private static int[] tokenIds(RoutingFields f) throws IOException {
        try (JsonParser p = FACTORY.createParser(f.body(), f.promptOffset(), f.promptLength())) {
            int[] out = new int[Math.max(0, f.tokenCount())];
            int n = 0;
            int depth = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_ARRAY) {
                    depth--;
                    if (depth == 1 && f.promptShape() == PromptShape.TOKEN_LISTS) {
                        break; // the first prompt of a batch is the one routed on
                    }
                } else if (t == JsonToken.VALUE_NUMBER_INT && n < out.length) {
                    out[n++] = p.getIntValue();
                }
            }
            return Arrays.copyOf(out, n);
        }
    }

    private static String firstText(RoutingFields f) throws IOException {
        JsonNode v = JSON.readTree(f.body(), f.promptOffset(), f.promptLength());
        return v.isArray() ? v.get(0).asText() : v.asText();
    }

    /** Prompts answered from the cache or from the request itself. */
    public long hits() {
        return hits.get();
    }

    /** Calls made to a tokenizer. */
    public long calls() {
        return calls.get();
    }

    /** Requests whose tokens could not be had. */
    public long failures() {
        return failures.get();
    }

    @Override
    public void close() {
        background.shutdownNow();
        client.close();
    }
}
