package dev.homing.bench.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.concurrent.Flow;
import java.util.function.LongSupplier;

/**
 * Reads one streamed completion as it arrives: the status and pod when the headers come, then each server-sent
 * {@code data:} event. The first event carrying text (a completion's {@code text}, a chat's {@code delta.content})
 * marks the first token; a chat's opening role-only event does not. The final {@code usage} event gives the token
 * counts; an {@code error} event after a 200 makes the request a failure with the error's code.
 */
final class ResponseStream implements Flow.Subscriber<String> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LongSupplier nanoTime;
    private Flow.Subscription subscription;
    private boolean cancelled;
    private int status;
    private String pod;
    private long firstTextNanos = -1;
    private int textEvents;
    private int promptTokens = -1;
    private int completionTokens = -1;
    private int cachedTokens = -1;
    private boolean usageSeen;
    private boolean cachedSeen;
    private int errorStatus;

    ResponseStream(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** What {@link java.net.http.HttpClient#sendAsync} calls when the headers arrive. */
    HttpResponse.BodySubscriber<Void> handler(HttpResponse.ResponseInfo info) {
        synchronized (this) {
            status = info.statusCode();
            pod = PodHeaders.of(info.headers());
        }
        return HttpResponse.BodySubscribers.fromLineSubscriber(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        boolean cancel;
        synchronized (this) {
            subscription = s;
            cancel = cancelled;
        }
        if (cancel) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(String line) {
        line(line);
    }

    @Override
    public void onError(Throwable throwable) {
        // The response future reports it.
    }

    @Override
    public void onComplete() {
        // The response future reports it.
    }

    /** Stops reading; the connection is closed. */
    void cancel() {
        Flow.Subscription s;
        synchronized (this) {
            cancelled = true;
            s = subscription;
        }
        if (s != null) {
            s.cancel();
        }
    }

    synchronized void line(String line) {
        if (!line.startsWith("data:")) {
            return; // blank separators, comments, event names, or a non-streamed error body
        }
        String data = line.substring(5).trim();
        if (data.isEmpty() || data.equals("[DONE]")) {
            return;
        }
        JsonNode event;
        try {
            event = JSON.readTree(data);
        } catch (IOException e) {
            return; // not ours to judge: the counts that matter come from well-formed events
        }
        if (event == null || !event.isObject()) {
            return;
        }
        JsonNode error = event.get("error");
        if (error != null && !error.isNull()) {
            int code = error.path("code").asInt(0);
            errorStatus = code >= 400 && code <= 599 ? code : 500;
        }
        for (JsonNode choice : event.path("choices")) {
            JsonNode text = choice.has("delta") ? choice.path("delta").path("content") : choice.path("text");
            if (text.isTextual() && !text.asText().isEmpty()) {
                if (firstTextNanos < 0) {
                    firstTextNanos = nanoTime.getAsLong();
                }
                textEvents++;
            }
        }
        JsonNode usage = event.get("usage");
        if (usage != null && usage.isObject()) {
            usageSeen = true;
            promptTokens = usage.path("prompt_tokens").asInt(-1);
            completionTokens = usage.path("completion_tokens").asInt(-1);
            JsonNode cached = usage.path("prompt_tokens_details").path("cached_tokens");
            if (cached.isNumber()) {
                cachedSeen = true;
                cachedTokens = cached.asInt();
            }
        }
    }

    /** What was read so far. */
    synchronized Snapshot snapshot() {
        return new Snapshot(status, pod, firstTextNanos, textEvents, promptTokens, completionTokens, cachedTokens,
                usageSeen, cachedSeen, errorStatus);
    }

    /**
     * @param status         HTTP status, 0 before the headers
     * @param firstTextNanos when the first text arrived (the stream's clock), or -1
     * @param cachedSeen     whether usage carried {@code prompt_tokens_details.cached_tokens} (vLLM sends it only
     *                       when some tokens were cached, and only with {@code --enable-prompt-tokens-details})
     * @param errorStatus    the code of an error event in the stream, or 0
     */
    record Snapshot(int status, String pod, long firstTextNanos, int textEvents, int promptTokens,
                    int completionTokens, int cachedTokens, boolean usageSeen, boolean cachedSeen, int errorStatus) {
    }
}
