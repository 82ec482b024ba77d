package dev.homing.core.framework.requestcontrol;

import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.util.Map;

/**
 * Callbacks as the response passes through the router (llm-d's ResponseHeader, ResponseBody and ResponseComplete
 * extension points). Every method has a no-op default; a plugin overrides what it needs.
 */
public interface ResponseHooks extends Plugin {

    /**
     * Once, when the endpoint's response headers arrive.
     *
     * @param extraHeaders headers the plugin wants added to the client's response
     */
    default void onHeaders(Cycle cycle, SchedulingResult result, int status, Map<String, String> extraHeaders) {
    }

    /**
     * Once, when the first output token arrives (the endpoint has prefilled the prompt), before the chunk that carries
     * it is passed on; never for a response that ended before one.
     */
    default void onFirstToken(Cycle cycle, SchedulingResult result) {
    }

    /** For every body chunk, in order, as it passes. Must be cheap: it runs on the streaming path. */
    default void onBodyChunk(Cycle cycle, SchedulingResult result, byte[] chunk, int offset, int length) {
    }

    /** Exactly once, when the request ends for any reason. */
    default void onComplete(Cycle cycle, SchedulingResult result, Outcome outcome) {
    }
}
