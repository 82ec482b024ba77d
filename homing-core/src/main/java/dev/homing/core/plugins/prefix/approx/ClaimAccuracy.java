package dev.homing.core.plugins.prefix.approx;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How right the index's guesses were: for each answered request, the prompt tokens the index believed its pod held at
 * the pick against the cached tokens the pod's {@code usage} reported. An index that claims more than the pod holds
 * sends prompts where they were evicted; one that claims less sends them away from the pod that still has them. The
 * two errors call for opposite fixes (a smaller or a larger share per pod), so they are counted apart. Thread-safe.
 */
final class ClaimAccuracy {

    private long answered;
    private long overClaimed;
    private long underClaimed;
    private long claimedTokens;
    private long cachedTokens;

    /**
     * @param claimed   tokens the index believed the pod held, at most the prompt's
     * @param cached    tokens the pod reported cached
     * @param tolerance tokens within which the two agree (block rounding on either side)
     */
    synchronized void observe(long claimed, long cached, long tolerance) {
        answered++;
        claimedTokens += claimed;
        cachedTokens += cached;
        if (claimed > cached + tolerance) {
            overClaimed++;
        } else if (claimed + tolerance < cached) {
            underClaimed++;
        }
    }

    synchronized Map<String, Double> report() {
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("claimsCompared", (double) answered);
        out.put("overClaimedShare", answered == 0 ? Double.NaN : (double) overClaimed / answered);
        out.put("underClaimedShare", answered == 0 ? Double.NaN : (double) underClaimed / answered);
        out.put("claimedOverCachedTokens", cachedTokens == 0 ? Double.NaN : (double) claimedTokens / cachedTokens);
        return out;
    }
}
