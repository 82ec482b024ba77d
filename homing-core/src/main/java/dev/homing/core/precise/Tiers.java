package dev.homing.core.precise;

import static dev.homing.core.precise.Holdings.TIER_MASK;

import java.util.Arrays;
import java.util.Map;

/**
 * The storage tiers of an {@link InMemoryPreciseIndex} as small ints (a holding keeps its tier in a few bits): the
 * configured tier names sorted, then one for any tier not configured, with their weights and their order by weight,
 * which a lookup needs to credit a block its best tier. Not thread-safe: {@link #of} remembers the last medium.
 */
final class Tiers {

    /** How many: the configured ones and one for any other. */
    final int count;
    /** Weight by tier. */
    final double[] weights;
    /** Tiers, heaviest first. */
    final int[] byWeight;
    /** The heaviest tier and its weight. */
    final int top;
    final double topWeight;
    /** The tier of a medium left out (vLLM's device memory). */
    final int gpu;

    private final String[] names;
    private String lastMedium; // and its tier
    private int lastMediumTier;

    /** @param weights weight per tier name (lower-case medium); unknown tiers weigh 1.0 */
    Tiers(Map<String, Double> weights) {
        if (weights.size() >= TIER_MASK) {
            throw new IllegalArgumentException("at most " + (TIER_MASK - 1) + " tiers");
        }
        this.names = weights.keySet().stream().sorted().toArray(String[]::new);
        this.count = names.length + 1;
        this.weights = new double[count];
        for (int i = 0; i < names.length; i++) {
            this.weights[i] = weights.get(names[i]);
        }
        this.weights[names.length] = 1.0; // any tier not configured
        this.byWeight = new int[count];
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(this.weights[b], this.weights[a]));
        for (int i = 0; i < count; i++) {
            byWeight[i] = order[i];
        }
        this.top = byWeight[0];
        this.topWeight = this.weights[top];
        this.gpu = indexOf(StoredBlocks.tierName(null));
    }

    /** The tier an event's medium names. */
    int of(String medium) {
        if (medium == null) {
            return gpu;
        }
        if (!medium.equals(lastMedium)) { // events name one or two media: spare lower-casing each
            lastMediumTier = indexOf(StoredBlocks.tierName(medium));
            lastMedium = medium;
        }
        return lastMediumTier;
    }

    private int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return names.length;
    }
}
