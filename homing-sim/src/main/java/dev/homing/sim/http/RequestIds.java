package dev.homing.sim.http;

import java.util.concurrent.atomic.AtomicLong;

/** vLLM-style ids ({@code cmpl-} + 32 hex digits), reproducible for a seed and safe across threads. */
final class RequestIds {

    private final long seed;
    private final AtomicLong counter = new AtomicLong();

    RequestIds(long seed) {
        this.seed = seed;
    }

    String next(String prefix) {
        long n = counter.incrementAndGet();
        return prefix + hex(mix(seed ^ mix(n))) + hex(mix(seed + 0x9E3779B97F4A7C15L * n));
    }

    /** SplitMix64's finaliser: consecutive inputs give unrelated-looking outputs. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static String hex(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(16 - h.length()) + h;
    }
}
