package dev.homing.bench.policy;

import dev.homing.core.time.Ticker;
import java.util.List;
import java.util.Objects;

/**
 * What a policy is built with: the pods it routes to (in cluster order), the cluster's clock, the seed its randomness
 * derives from, and the engines' block size (a policy fed by KV events keys blocks of that size).
 */
public record PolicyContext(List<String> pods, Ticker ticker, long seed, int blockSize) {

    public PolicyContext {
        pods = List.copyOf(pods);
        Objects.requireNonNull(ticker, "ticker");
        if (pods.isEmpty()) {
            throw new IllegalArgumentException("a policy needs at least one pod");
        }
        if (blockSize <= 0) {
            throw new IllegalArgumentException("blockSize must be > 0, got " + blockSize);
        }
    }

    public int podCount() {
        return pods.size();
    }

    /** A seed for one named source of randomness, so that adding a policy never shifts another's draws. */
    public long seedFor(String purpose) {
        long h = seed ^ 0x9E37_79B9_7F4A_7C15L;
        for (int i = 0; i < purpose.length(); i++) {
            h = (h ^ purpose.charAt(i)) * 0x100_0000_01B3L;
        }
        return h;
    }
}
