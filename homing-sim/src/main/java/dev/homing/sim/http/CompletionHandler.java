package dev.homing.sim.http;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.engine.EchoTokens;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.OutputModel;
import dev.homing.sim.engine.RandomTokens;
import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.engine.RequestHandle;
import dev.homing.sim.engine.SimRequest;
import dev.homing.sim.tokenizer.Detokenizer;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.BooleanSupplier;

/**
 * {@code POST /v1/completions} and {@code POST /v1/chat/completions}: validates and tokenizes the request, submits it
 * to the engine and writes what the engine produces, streamed as SSE chunk by chunk or as one JSON body. Whatever
 * ends the exchange early (a client that goes away, a failure while writing) aborts the engine request, freeing its
 * seat and KV blocks.
 *
 * <p>A client that disconnects is noticed at the next write; a non-streaming request is noticed only when its answer
 * is written (vLLM polls the socket instead).
 */
final class CompletionHandler {

    private static final System.Logger LOG = System.getLogger(CompletionHandler.class.getName());
    private static final int DEFAULT_COMPLETION_MAX_TOKENS = 16;

    private final SimPodConfig config;
    private final SimTokenizer tokenizer;
    private final RequestReader reader;
    private final RealTimeEngineDriver driver;
    private final PodMetrics metrics;
    private final RequestIds ids;
    private final BooleanSupplier closing;
    private final int[] wordIds;

    CompletionHandler(SimPodConfig config, SimTokenizer tokenizer, RealTimeEngineDriver driver, PodMetrics metrics,
            RequestIds ids, BooleanSupplier closing) {
        this.config = config;
        this.tokenizer = tokenizer;
        this.reader = new RequestReader(tokenizer);
        this.driver = driver;
        this.metrics = metrics;
        this.ids = ids;
        this.closing = closing;
        this.wordIds = tokenizer.vocabularyWordIds();
    }

    void handle(ServerRequest req, ServerResponse res, ApiKind api) {
        CompletionRequest request;
        SimRequest simRequest;
        try {
            request = reader.read(api, body(req));
            if (!config.servedModelNames().contains(request.model())) {
                throw new RequestFormatException(OpenAiError.modelNotFound(request.model()));
            }
            simRequest = simRequest(request);
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
            return;
        }
        boolean chat = api == ApiKind.CHAT_COMPLETIONS;
        ResponseJson json = new ResponseJson(chat, simRequest.requestId(), config.wallClock().instant().getEpochSecond(),
                request.model(), config.enablePromptTokensDetails());
        TokenQueue queue = new TokenQueue();
        long submitted = driver.nanoTime();
        RequestHandle handle;
        try {
            handle = driver.submit(simRequest, submitted, metrics.observe(queue, submitted));
        } catch (IllegalArgumentException e) {
            SimPod.sendError(res, OpenAiError.badRequest(e.getMessage(), null));
            return;
        }
        boolean finished = false;
        try {
            finished = request.stream() ? stream(res, request, json, queue) : respond(res, json, queue);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!finished) {
                driver.abort(handle);
            }
        }
    }

    /** Returns true once the engine finished the request, false if the client went away first. */
    private boolean stream(ServerResponse res, CompletionRequest request, ResponseJson json, TokenQueue queue)
            throws InterruptedException {
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        boolean chat = request.api() == ApiKind.CHAT_COMPLETIONS;
        Detokenizer detokenizer = tokenizer.detokenizer();
        boolean first = true;
        try (OutputStream out = res.outputStream()) {
            while (true) {
                TokenQueue.Event event = queue.next(closing);
                if (event instanceof TokenQueue.Token token) {
                    if (first && chat) {
                        send(out, json.chunk("assistant", "", null));
                    }
                    first = false;
                    String text = detokenizer.append(token.id());
                    if (!text.isEmpty()) {
                        send(out, json.chunk(null, text, null));
                    }
                } else if (event instanceof TokenQueue.Finished done) {
                    if (done.lastToken() < 0) {
                        return true; // aborted elsewhere: nothing more to say
                    }
                    if (first && chat) {
                        send(out, json.chunk("assistant", "", null));
                    }
                    String text = detokenizer.append(done.lastToken()) + detokenizer.finish();
                    send(out, json.chunk(null, text, done.reason()));
                    if (request.includeUsage()) {
                        send(out, json.usageChunk(done.usage()));
                    }
                    send(out, ResponseJson.DONE);
                    return true;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.DEBUG, "client went away mid-stream", e);
            return false;
        } catch (RuntimeException e) {
            // Helidon reports a closed connection with its own unchecked exceptions.
            LOG.log(System.Logger.Level.DEBUG, "stream ended by the connection", e);
            return false;
        }
    }

    private boolean respond(ServerResponse res, ResponseJson json, TokenQueue queue) throws InterruptedException {
        Detokenizer detokenizer = tokenizer.detokenizer();
        StringBuilder text = new StringBuilder();
        while (true) {
            TokenQueue.Event event = queue.next(closing);
            if (event instanceof TokenQueue.Token token) {
                text.append(detokenizer.append(token.id()));
            } else if (event instanceof TokenQueue.Finished done) {
                if (done.lastToken() >= 0) {
                    text.append(detokenizer.append(done.lastToken()));
                }
                text.append(detokenizer.finish());
                res.header(HeaderNames.CONTENT_TYPE, "application/json");
                res.send(json.complete(text.toString(), done.reason(), done.usage()));
                return true;
            }
        }
    }

    private SimRequest simRequest(CompletionRequest request) throws RequestFormatException {
        EngineConfig engine = config.engine();
        int maxModelLen = engine.maxModelLen();
        int promptTokens = request.promptTokens().length;
        boolean chat = request.api() == ApiKind.CHAT_COMPLETIONS;
        String promptParam = chat ? "messages" : "prompt";
        int maxTokens = request.maxTokens();
        if (maxTokens < 0 && !chat) {
            maxTokens = DEFAULT_COMPLETION_MAX_TOKENS;
        }
        // vLLM's OpenAIServing._validate_input, wording included.
        if (maxTokens < 0) {
            if (promptTokens >= maxModelLen) {
                throw RequestFormatException.badRequest("This model's maximum context length is " + maxModelLen
                        + " tokens. However, you requested " + promptTokens + " tokens in the messages, "
                        + "Please reduce the length of the messages.", promptParam);
            }
            maxTokens = maxModelLen - promptTokens;
        } else if ((long) promptTokens + maxTokens > maxModelLen) {
            throw RequestFormatException.badRequest("This model's maximum context length is " + maxModelLen
                    + " tokens. However, you requested " + (promptTokens + maxTokens) + " tokens (" + promptTokens
                    + " in the messages, " + maxTokens + " in the completion). "
                    + "Please reduce the length of the messages or completion.", promptParam);
        }
        OutputModel output = switch (config.mode()) {
            case ECHO -> new EchoTokens(request.echoTokens(), tokenizer.eosTokenId(), request.ignoreEos());
            case RANDOM -> new RandomTokens(wordIds, tokenizer.eosTokenId(),
                    request.ignoreEos() ? 0 : config.eosProbability());
        };
        String id = ids.next(chat ? "chatcmpl-" : "cmpl-");
        return new SimRequest(id, request.promptTokens(), maxTokens, request.ignoreEos(), null, request.cacheSalt(),
                output);
    }

    private byte[] body(ServerRequest req) throws RequestFormatException {
        int limit = config.maxRequestBodyBytes();
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes(limit + 1);
            if (body.length > limit) {
                throw new RequestFormatException(OpenAiError.payloadTooLarge(limit));
            }
            return body;
        } catch (IOException | UncheckedIOException e) {
            throw RequestFormatException.badRequest("The request body could not be read: " + e.getMessage(), null);
        }
    }

    private static void send(OutputStream out, byte[] chunk) throws IOException {
        out.write(chunk);
        out.flush();
    }
}
