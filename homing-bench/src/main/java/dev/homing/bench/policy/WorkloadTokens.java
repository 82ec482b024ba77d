package dev.homing.bench.policy;

import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.request.TokenSource;
import java.time.Duration;
import java.util.Optional;

/**
 * The token source a precise producer asks in the lab: the workload already knows each prompt's tokens (exactly what
 * the simulated engine will see), so the answer is immediate. It knows the request being placed, set just before its
 * decision; anything else has no tokens, as a token source that timed out.
 */
final class WorkloadTokens implements TokenSource {

    private String requestId;
    private int[] tokens;

    void offer(String id, int[] ids) {
        this.requestId = id;
        this.tokens = ids;
    }

    void clear() {
        requestId = null;
        tokens = null;
    }

    @Override
    public Optional<int[]> tokens(InferenceRequest request, String renderUrl, Duration timeout) {
        return request.requestId().equals(requestId) && tokens != null ? Optional.of(tokens) : Optional.empty();
    }
}
