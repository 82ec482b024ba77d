package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.sim.engine.EchoTokens;
import dev.homing.sim.engine.OutputModel;
import dev.homing.sim.engine.RandomTokens;
import dev.homing.sim.engine.SimRequest;
import dev.homing.sim.tokenizer.ChatMessage;
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
 * vLLM's Responses API: {@code POST /v1/responses} (one engine request, answered as a {@code ResponsesResponse} or
 * streamed as its events), {@code GET /v1/responses/{id}} and {@code POST /v1/responses/{id}/cancel}. The prompt is
 * vLLM's: the {@code instructions} as a system message, then, when {@code previous_response_id} names a stored
 * response, the messages that response was made from and its output as an assistant message, then the new
 * {@code input}, through the chat template. A stored response is kept by this pod only ({@link ResponseStore}): any
 * other pod answers a follow-up naming it with vLLM's 404, which is why a router must send it back here.
 *
 * <p>Errors as vLLM words them: an id not starting with {@code resp} is a 400, an unknown one a 404
 * ({@code invalid_request_error}, {@code param} {@code response_id}); a prompt of {@code max_model_len} tokens or more
 * a 400. {@code background} is refused: the sim answers every response while the client waits.
 */
final class ResponsesHandler {

    private static final System.Logger LOG = System.getLogger(ResponsesHandler.class.getName());

    private final PodServices pod;
    private final ResponseStore store;
    private final int[] wordIds;

    /** @param store where this pod keeps the responses it made ({@code store}), for follow-ups and retrieval */
    ResponsesHandler(PodServices pod, ResponseStore store) {
        this.pod = pod;
        this.store = store;
        this.wordIds = pod.tokenizer().vocabularyWordIds();
    }

    /** What one response is made from. */
    private record Plan(ResponsesRequest request, List<ChatMessage> messages, int[] prompt, int maxTokens,
            boolean store) {
    }

    void create(ServerRequest req, ServerResponse res) {
        if (pod.forcedFailure(req, res)) {
            return;
        }
        Plan plan;
        ServedModels.Adapter lora;
        try {
            ResponsesRequest request = ResponsesRequest.read(RequestBodies.read(req,
                    pod.config().maxRequestBodyBytes()));
            lora = pod.models().resolve(request.model());
            plan = plan(request);
            if (pod.drawnFailure(res)) {
                return;
            }
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
            return;
        }
        ResponsesRequest request = plan.request();
        SimPodConfig config = pod.config();
        SimTokenizer tokenizer = pod.tokenizer();
        String id = pod.ids().next("resp_");
        ResponsesJson json = new ResponsesJson(id, pod.ids().next("msg_"),
                config.wallClock().instant().getEpochSecond(), request.model(), request, plan.maxTokens());
        OutputModel output = switch (config.mode()) {
            case ECHO -> new EchoTokens(tokenizer.encode(lastUserText(plan.messages())), tokenizer.eosTokenId(),
                    request.ignoreEos());
            case RANDOM -> new RandomTokens(wordIds, tokenizer.eosTokenId(),
                    request.ignoreEos() ? 0 : config.eosProbability());
        };
        SimRequest engineRequest = new SimRequest(id, plan.prompt(), plan.maxTokens(), request.ignoreEos(),
                lora == null ? null : lora.name(), lora == null ? 0 : lora.id(), request.cacheSalt(), output);
        ChoiceQueue queue = new ChoiceQueue();
        try (EngineCalls calls = pod.calls()) {
            try {
                calls.submit(engineRequest, pod.metrics().observe(queue.observer(0), calls.submittedNanos(),
                        plan.maxTokens(), pod.metrics().choices(1)));
            } catch (IllegalArgumentException e) {
                SimPod.sendError(res, OpenAiError.badRequest(e.getMessage(), "input"));
                return;
            }
            if (request.stream() ? stream(res, json, queue, id, plan) : respond(res, json, queue, id, plan)) {
                calls.finished();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code GET /v1/responses/{response_id}}: a stored response, as it was answered. */
    void retrieve(ServerRequest req, ServerResponse res) {
        String responseId = req.path().pathParameters().get("response_id");
        try {
            ResponseStore.Stored stored = stored(responseId);
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(stored.json());
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    /** {@code POST /v1/responses/{response_id}/cancel}: every response here was answered while its client waited. */
    void cancel(ServerRequest req, ServerResponse res) {
        String responseId = req.path().pathParameters().get("response_id");
        try {
            stored(responseId);
            SimPod.sendError(res, new OpenAiError(400, "invalid_request_error",
                    "Cannot cancel a synchronous response.", "response_id"));
        } catch (RequestFormatException e) {
            SimPod.sendError(res, e.error());
        }
    }

    /** Validates the request as vLLM does and renders its prompt. */
    private Plan plan(ResponsesRequest request) throws RequestFormatException {
        if (request.background()) {
            throw new RequestFormatException(new OpenAiError(400, "invalid_request_error", store.enabled()
                    ? "This simulator does not run responses in the background."
                    : "This vLLM engine does not support `store=True` and therefore does not support the background "
                    + "mode. To enable these features, set the environment variable "
                    + "`VLLM_ENABLE_RESPONSES_API_STORE=1` when launching the vLLM server.", "background"));
        }
        List<ChatMessage> messages = new ArrayList<>();
        if (request.instructions() != null && !request.instructions().isEmpty()) {
            messages.add(new ChatMessage("system", request.instructions()));
        }
        if (request.previousResponseId() != null) {
            ResponseStore.Stored previous = stored(request.previousResponseId());
            messages.addAll(previous.messages());
            messages.add(new ChatMessage("assistant", previous.output()));
        }
        messages.addAll(request.input());
        SimTokenizer tokenizer = pod.tokenizer();
        int[] prompt = tokenizer.encode(tokenizer.applyChatTemplate(messages, true));
        int maxLen = pod.config().engine().maxModelLen();
        if (prompt.length >= maxLen) {
            throw new RequestFormatException(new OpenAiError(400, "invalid_request_error", "The engine prompt length "
                    + prompt.length + " exceeds the max_model_len " + maxLen + ". Please reduce prompt.", "input"));
        }
        // vLLM's get_max_tokens: what the context leaves, capped by max_output_tokens
        int room = maxLen - prompt.length;
        int maxTokens = request.maxOutputTokens() > 0 ? Math.min(request.maxOutputTokens(), room) : room;
        // vLLM silently ignores store without VLLM_ENABLE_RESPONSES_API_STORE
        return new Plan(request, messages, prompt, maxTokens, request.store() && store.enabled());
    }

    private ResponseStore.Stored stored(String responseId) throws RequestFormatException {
        if (responseId == null || !responseId.startsWith("resp")) {
            throw new RequestFormatException(new OpenAiError(400, "invalid_request_error", "Invalid 'response_id': '"
                    + responseId + "'. Expected an ID that begins with 'resp'.", "response_id"));
        }
        ResponseStore.Stored stored = store.get(responseId);
        if (stored == null) {
            throw new RequestFormatException(new OpenAiError(404, "invalid_request_error", "Response with id '"
                    + responseId + "' not found.", "response_id"));
        }
        return stored;
    }

    /**
     * Streams the events; true once the engine finished, false if the client went away first. The response is stored
     * before {@code response.completed} is sent, as vLLM stores it, so a client that has that event can name it.
     */
    private boolean stream(ServerResponse res, ResponsesJson json, ChoiceQueue queue, String id, Plan plan)
            throws InterruptedException {
        res.status(Status.OK_200);
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        Detokenizer detokenizer = pod.tokenizer().detokenizer();
        StringBuilder text = new StringBuilder();
        try (OutputStream out = res.outputStream()) {
            // vLLM announces the response at once, before the engine has produced anything
            send(out, json.created());
            send(out, json.inProgress());
            boolean started = false;
            while (true) {
                ChoiceQueue.Event event = queue.next(pod.closing());
                if (!started) {
                    send(out, json.itemAdded());
                    send(out, json.partAdded());
                    started = true;
                }
                if (event instanceof ChoiceQueue.Token token) {
                    String piece = detokenizer.append(token.id());
                    if (!piece.isEmpty()) {
                        text.append(piece);
                        send(out, json.delta(piece));
                    }
                } else if (event instanceof ChoiceQueue.Finished done) {
                    if (done.reason() == dev.homing.sim.engine.FinishReason.ABORT) {
                        return false;
                    }
                    String piece = (done.lastToken() >= 0 ? detokenizer.append(done.lastToken()) : "")
                            + detokenizer.finish();
                    if (!piece.isEmpty()) {
                        text.append(piece);
                        send(out, json.delta(piece));
                    }
                    String all = text.toString();
                    ResponsesJson.Totals usage = totals(plan, done);
                    send(out, json.textDone(all));
                    send(out, json.partDone(all));
                    send(out, json.itemDone(all));
                    keep(plan, new ResponseStore.Stored(id, json.response(all, done.reason(), usage), plan.messages(),
                            all));
                    send(out, json.completed(all, done.reason(), usage));
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

    /** Answers the whole response, stored first as vLLM stores it before returning it. */
    private boolean respond(ServerResponse res, ResponsesJson json, ChoiceQueue queue, String id, Plan plan)
            throws InterruptedException {
        Detokenizer detokenizer = pod.tokenizer().detokenizer();
        StringBuilder text = new StringBuilder();
        while (true) {
            ChoiceQueue.Event event = queue.next(pod.closing());
            if (event instanceof ChoiceQueue.Token token) {
                text.append(detokenizer.append(token.id()));
            } else if (event instanceof ChoiceQueue.Finished done) {
                if (done.lastToken() >= 0) {
                    text.append(detokenizer.append(done.lastToken()));
                }
                text.append(detokenizer.finish());
                String all = text.toString();
                byte[] body = json.response(all, done.reason(), totals(plan, done));
                keep(plan, new ResponseStore.Stored(id, body, plan.messages(), all));
                res.header(HeaderNames.CONTENT_TYPE, "application/json");
                res.send(body);
                return true;
            }
        }
    }

    private void keep(Plan plan, ResponseStore.Stored response) {
        if (plan.store()) {
            store.put(response);
        }
    }

    private ResponsesJson.Totals totals(Plan plan, ChoiceQueue.Finished done) {
        int cached = pod.config().enablePromptTokensDetails() ? done.usage().cachedTokens() : 0;
        return new ResponsesJson.Totals(plan.prompt().length, done.usage().completionTokens(), cached);
    }

    private static String lastUserText(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.get(i).content();
            }
        }
        return messages.isEmpty() ? "" : messages.getLast().content();
    }

    private static void send(OutputStream out, byte[] chunk) throws IOException {
        out.write(chunk);
        out.flush();
    }
}
