package dev.homing.sim.http;

import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.engine.EchoTokens;
import dev.homing.sim.engine.OutputModel;
import dev.homing.sim.engine.RandomTokens;
import dev.homing.sim.engine.SimRequest;
import dev.homing.sim.engine.Usage;
import dev.homing.sim.tokenizer.Detokenizer;
import dev.homing.sim.tokenizer.SimTokenizer;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /v1/completions} and {@code POST /v1/chat/completions}: validates and tokenizes the request, submits one
 * engine request per choice (every prompt of a batch, {@code n} times each, as vLLM's child requests sharing the
 * prompt's prefix) and writes what the engine produces, streamed as SSE chunk by chunk or as one JSON body. Whatever
 * ends the exchange early (a client that goes away, a failure while writing) aborts the choices still running,
 * freeing their seats and KV blocks.
 *
 * <p>A client that disconnects is noticed at the next write; a non-streaming request is noticed only when its answer
 * is written (vLLM polls the socket instead).
 */
final class CompletionHandler {

    private static final System.Logger LOG = System.getLogger(CompletionHandler.class.getName());
    /** vLLM's {@code CompletionRequest.max_tokens} default; chat defaults to what the context leaves. */
    private static final int DEFAULT_COMPLETION_MAX_TOKENS = 16;

    private final PodServices pod;
    private final RequestReader reader;
    private final int[] wordIds;

    CompletionHandler(PodServices pod) {
        this.pod = pod;
        this.reader = new RequestReader(pod.tokenizer());
        this.wordIds = pod.tokenizer().vocabularyWordIds();
    }

    /** A validated request and the engine requests that answer it, in choice order. */
    private record Plan(CompletionRequest request, String id, List<SimRequest> choices) {
    }

    void handle(ServerRequest req, ServerResponse res, ApiKind api) {
        if (pod.forcedFailure(req, res)) {
            return;
        }
        Plan plan;
        try {
            CompletionRequest request = reader.read(api, RequestBodies.read(req, pod.config().maxRequestBodyBytes()));
            ServedModels.Adapter lora = pod.models().resolve(request.model());
            int[] maxTokens = maxTokens(request);
            if (pod.drawnFailure(res)) {
                return;
            }
            plan = plan(request, lora, maxTokens);
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
            return;
        }
        CompletionRequest request = plan.request();
        ResponseJson json = new ResponseJson(request.chat(), plan.id(),
                pod.config().wallClock().instant().getEpochSecond(), request.model(),
                pod.config().enablePromptTokensDetails());
        ChoiceQueue queue = new ChoiceQueue();
        try (EngineCalls calls = pod.calls()) {
            try {
                PodMetrics.Choices parent = null;
                for (int i = 0; i < plan.choices().size(); i++) {
                    SimRequest choice = plan.choices().get(i);
                    // choices come prompt by prompt, n each; vLLM makes each prompt of a batch a request of its own
                    if (i % request.n() == 0) {
                        parent = pod.metrics().choices(request.n());
                    }
                    calls.submit(choice, pod.metrics().observe(queue.observer(i), calls.submittedNanos(),
                            choice.maxTokens(), parent));
                }
            } catch (IllegalArgumentException e) {
                calls.close();
                SimPod.sendError(res, OpenAiError.badRequest(e.getMessage(), null));
                return;
            }
            int choices = plan.choices().size();
            if (request.stream() ? stream(res, request, json, queue, choices)
                    : respond(res, request, json, queue, choices)) {
                calls.finished();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns true once the engine finished every choice, false if the client went away first. */
    private boolean stream(ServerResponse res, CompletionRequest request, ResponseJson json, ChoiceQueue queue,
            int choices) throws InterruptedException {
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        Detokenizer[] detokenizers = detokenizers(choices);
        UsageTotals totals = new UsageTotals(request, choices);
        boolean started = false;
        try (OutputStream out = res.outputStream()) {
            for (int remaining = choices; remaining > 0; ) {
                ChoiceQueue.Event event = queue.next(pod.closing());
                if (!started && request.chat()) {
                    // vLLM opens every choice with its role as soon as the first output arrives.
                    for (int i = 0; i < choices; i++) {
                        send(out, json.chunk(i, "assistant", "", null));
                    }
                }
                started = true;
                int i = event.choice();
                if (event instanceof ChoiceQueue.Token token) {
                    String text = detokenizers[i].append(token.id());
                    if (!text.isEmpty()) {
                        send(out, json.chunk(i, null, text, null));
                    }
                } else if (event instanceof ChoiceQueue.Finished done) {
                    String text = (done.lastToken() >= 0 ? detokenizers[i].append(done.lastToken()) : "")
                            + detokenizers[i].finish();
                    send(out, json.chunk(i, null, text, done.reason()));
                    totals.add(i, done.usage());
                    remaining--;
                }
            }
            if (request.includeUsage()) {
                send(out, json.usageChunk(totals.totals()));
            }
            send(out, ResponseJson.DONE);
            return true;
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.DEBUG, "client went away mid-stream", e);
            return false;
        } catch (RuntimeException e) {
            // Helidon reports a closed connection with its own unchecked exceptions.
            LOG.log(System.Logger.Level.DEBUG, "stream ended by the connection", e);
            return false;
        }
    }

    private boolean respond(ServerResponse res, CompletionRequest request, ResponseJson json, ChoiceQueue queue,
            int choices) throws InterruptedException {
        Detokenizer[] detokenizers = detokenizers(choices);
        StringBuilder[] texts = new StringBuilder[choices];
        ResponseJson.Choice[] done = new ResponseJson.Choice[choices];
        UsageTotals totals = new UsageTotals(request, choices);
        for (int remaining = choices; remaining > 0; ) {
            ChoiceQueue.Event event = queue.next(pod.closing());
            int i = event.choice();
            if (texts[i] == null) {
                texts[i] = new StringBuilder();
            }
            if (event instanceof ChoiceQueue.Token token) {
                texts[i].append(detokenizers[i].append(token.id()));
            } else if (event instanceof ChoiceQueue.Finished f) {
                if (f.lastToken() >= 0) {
                    texts[i].append(detokenizers[i].append(f.lastToken()));
                }
                texts[i].append(detokenizers[i].finish());
                done[i] = new ResponseJson.Choice(texts[i].toString(), f.reason());
                totals.add(i, f.usage());
                remaining--;
            }
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(json.complete(List.of(done), totals.totals()));
        return true;
    }

    /** Each prompt's {@code max_tokens}, validated as vLLM validates it. */
    private int[] maxTokens(CompletionRequest request) throws RequestFormatException {
        int[] maxTokens = new int[request.prompts().size()];
        for (int p = 0; p < maxTokens.length; p++) {
            maxTokens[p] = maxTokens(request, request.prompts().get(p).length, pod.config().engine().maxModelLen());
        }
        return maxTokens;
    }

    private Plan plan(CompletionRequest request, ServedModels.Adapter lora, int[] maxTokens) {
        boolean chat = request.chat();
        String id = pod.ids().next(chat ? "chatcmpl-" : "cmpl-");
        SimTokenizer tokenizer = pod.tokenizer();
        SimPodConfig config = pod.config();
        List<SimRequest> choices = new ArrayList<>(request.prompts().size() * request.n());
        for (int p = 0; p < request.prompts().size(); p++) {
            int[] prompt = request.prompts().get(p);
            int[] echo = config.mode() == OutputMode.ECHO ? request.echo(p, tokenizer) : null;
            for (int c = 0; c < request.n(); c++) {
                int index = p * request.n() + c;
                OutputModel output = switch (config.mode()) {
                    case ECHO -> new EchoTokens(echo, tokenizer.eosTokenId(), request.ignoreEos());
                    case RANDOM -> new RandomTokens(wordIds, tokenizer.eosTokenId(),
                            request.ignoreEos() ? 0 : config.eosProbability());
                };
                choices.add(new SimRequest(id + "-" + index, prompt, maxTokens[p], request.ignoreEos(),
                        lora == null ? null : lora.name(), lora == null ? 0 : lora.id(), request.cacheSalt(),
                        output));
            }
        }
        return new Plan(request, id, choices);
    }

    /** vLLM's input validation ({@code _validate_input}, wording included) and its default {@code max_tokens}. */
    static int maxTokens(CompletionRequest request, int promptTokens, int maxModelLen)
            throws RequestFormatException {
        String param = request.chat() ? "messages" : "prompt";
        if (promptTokens >= maxModelLen) {
            throw RequestFormatException.badRequest("This model's maximum context length is " + maxModelLen
                    + " tokens. However, your request has " + promptTokens + " input tokens. Please reduce the length"
                    + " of the input messages.", param);
        }
        int maxTokens = request.maxTokens();
        if (maxTokens < 0) {
            if (request.chat()) {
                return maxModelLen - promptTokens;
            }
            maxTokens = DEFAULT_COMPLETION_MAX_TOKENS;
        }
        if ((long) promptTokens + maxTokens > maxModelLen) {
            throw RequestFormatException.badRequest("'max_tokens' or 'max_completion_tokens' is too large: "
                    + maxTokens + ". This model's maximum context length is " + maxModelLen + " tokens and your "
                    + "request has " + promptTokens + " input tokens (" + maxTokens + " > " + maxModelLen + " - "
                    + promptTokens + ").", param);
        }
        return maxTokens;
    }

    private Detokenizer[] detokenizers(int n) {
        Detokenizer[] d = new Detokenizer[n];
        for (int i = 0; i < n; i++) {
            d[i] = pod.tokenizer().detokenizer();
        }
        return d;
    }

    private static void send(OutputStream out, byte[] chunk) throws IOException {
        out.write(chunk);
        out.flush();
    }

    /** Sums usage over choices the way vLLM's serving layer does. */
    private static final class UsageTotals {
        private final int promptTokens;
        private final int lastPromptFirstChoice;
        private int completionTokens;
        private int cachedTokens;

        UsageTotals(CompletionRequest request, int choices) {
            int sum = 0;
            for (int[] p : request.prompts()) {
                sum += p.length;
            }
            this.promptTokens = sum;
            this.lastPromptFirstChoice = choices - request.n();
        }

        void add(int choice, Usage usage) {
            completionTokens += usage.completionTokens();
            if (choice == lastPromptFirstChoice) {
                cachedTokens = usage.cachedTokens(); // vLLM reports the last prompt's result only
            }
        }

        ResponseJson.Totals totals() {
            return new ResponseJson.Totals(promptTokens, completionTokens, cachedTokens);
        }
    }
}
