package dev.homing.core.framework.scheduling;

import dev.homing.core.endpoint.EndpointSnapshot;
import dev.homing.core.framework.request.InferenceRequest;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One request's pass through the scheduler: the request, the pool snapshot it is scheduled against, the time, and the
 * data plugins hand each other (llm-d's CycleState). Confined to the thread handling the request.
 */
public final class Cycle {

    private final InferenceRequest request;
    private final EndpointSnapshot snapshot;
    private final long startNanos;
    private final boolean dryRun;
    private final Map<CycleKey<?>, Object> state = new IdentityHashMap<>();
    private final Map<String, String> upstreamHeaders = new LinkedHashMap<>();
    private long estimatedPromptTokens = -1;

    public Cycle(InferenceRequest request, EndpointSnapshot snapshot, long startNanos) {
        this(request, snapshot, startNanos, false);
    }

    /**
     * @param dryRun the cycle only explains a decision ({@code /debug/schedule}): plugins must not change shared
     *               state (rotation counters, indexes, LRUs) because of it
     */
    public Cycle(InferenceRequest request, EndpointSnapshot snapshot, long startNanos, boolean dryRun) {
        this.request = Objects.requireNonNull(request, "request");
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
        this.startNanos = startNanos;
        this.dryRun = dryRun;
    }

    public boolean isDryRun() {
        return dryRun;
    }

    /**
     * Headers to add to the request forwarded to the endpoint (P/D's {@code x-prefiller-host-port}, for instance);
     * pre-request plugins write them, the proxy sends them.
     */
    public Map<String, String> upstreamHeaders() {
        return upstreamHeaders;
    }

    public InferenceRequest request() {
        return request;
    }

    /** The prompt's length in tokens: exact when a token producer put the ids in this cycle, else the estimate. */
    public long promptTokens() {
        PromptTokens t = get(PromptTokens.KEY);
        if (t != null) {
            return t.length();
        }
        return estimatedPromptTokens >= 0 ? estimatedPromptTokens : Math.max(0, request().estimatedPromptTokens());
    }

    /**
     * A better estimate of the prompt's tokens than four bytes each, from a plugin that learnt the text's bytes per
     * token: every plugin that prices tokens then counts the prompt and its cached part in the same tokens.
     */
    public void estimatePromptTokens(long tokens) {
        estimatedPromptTokens = Math.max(0, tokens);
    }

    public EndpointSnapshot snapshot() {
        return snapshot;
    }

    public long startNanos() {
        return startNanos;
    }

    public <T> T get(CycleKey<T> key) {
        return key.cast(state.get(key));
    }

    public <T> void put(CycleKey<T> key, T value) {
        state.put(key, value);
    }
}
