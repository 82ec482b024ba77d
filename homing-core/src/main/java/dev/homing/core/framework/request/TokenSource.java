package dev.homing.core.framework.request;

import java.time.Duration;
import java.util.Optional;

/**
 * Turns a request into the tokens its model server will see. Core has no I/O: the router provides one that asks a pod
 * of the pool ({@code /v1/completions/render}, {@code /v1/chat/completions/render}, {@code /tokenize}); the benchmark
 * one that runs the simulator's tokenizer.
 */
public interface TokenSource {

    /**
     * @param renderUrl a model server to ask first ({@code token-producer}'s {@code vllm.url}), or null for any pod
     * @return the tokens, or empty when they cannot be had within {@code timeout} (the caller falls back)
     */
    Optional<int[]> tokens(InferenceRequest request, String renderUrl, Duration timeout);
}
