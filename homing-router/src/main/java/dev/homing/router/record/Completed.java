package dev.homing.router.record;

import dev.homing.core.framework.request.InferenceRequest;

/**
 * What the request thread hands the writer about a request that ended: references and counts, nothing computed. The
 * body stays alive through {@code request} until the writer is done with it (the queue bounds how many bytes that is).
 *
 * @param arrivalNanos when the router began to place it (the ticker's nanos)
 * @param tokens       the prompt's tokens when a token producer obtained them, else null
 */
record Completed(long arrivalNanos, InferenceRequest request, String model, int[] tokens, long inputLength,
                 long outputLength) {

    long bodyBytes() {
        byte[] b = request.fields().body();
        return b == null ? 0 : b.length;
    }
}
