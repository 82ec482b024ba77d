package dev.homing.sim.http;

import dev.homing.protocol.openai.OpenAiError;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Fails requests on purpose, as llm-d-inference-sim does: the {@code X-Return-Error: <status>} header forces an error
 * with that status; otherwise {@code --failure-injection-rate} percent of generation requests get a failure drawn
 * uniformly from {@code --failure-types} (all of them when none are given). Draws from its own seeded generator, so a
 * run is reproducible for a seed and request order. Thread-safe.
 */
final class FailureInjector {

    static final String HEADER = "X-Return-Error";

    private final int ratePercent;
    private final List<FailureType> types;
    private final String model;
    private final SplittableRandom rng;

    FailureInjector(int ratePercent, List<FailureType> types, String model, long seed) {
        if (ratePercent < 0 || ratePercent > 100) {
            throw new IllegalArgumentException("failure-injection-rate must be 0..100, got " + ratePercent);
        }
        this.ratePercent = ratePercent;
        this.types = types.isEmpty() ? List.of(FailureType.values()) : List.copyOf(types);
        this.model = model;
        this.rng = new SplittableRandom(seed ^ 0x5DEECE66DL);
    }

    /** The error the request's {@code X-Return-Error} header asks for, or empty when it has none. */
    static Optional<OpenAiError> forced(ServerRequest req) {
        return req.headers().first(HeaderNames.create(HEADER)).map(FailureInjector::forced);
    }

    /** The error an {@code X-Return-Error} header value asks for; a value that is not an error status is a 400. */
    static OpenAiError forced(String headerValue) {
        int status;
        try {
            status = Integer.parseInt(headerValue.strip());
        } catch (NumberFormatException e) {
            status = -1;
        }
        if (status < 400 || status > 599) {
            return OpenAiError.badRequest("Invalid " + HEADER + " header value '" + headerValue
                    + "': expected an HTTP error status code (400-599).", null);
        }
        return new OpenAiError(status, FailureType.typeOf(status),
                "Simulated error with status " + status + " requested by the " + HEADER + " header.", null);
    }

    /** A random failure for this request, or empty; draws nothing when the rate is 0. */
    Optional<OpenAiError> draw() {
        if (ratePercent == 0) {
            return Optional.empty();
        }
        synchronized (rng) {
            if (rng.nextInt(1, 101) > ratePercent) {
                return Optional.empty();
            }
            return Optional.of(types.get(rng.nextInt(types.size())).error(model));
        }
    }
}
