package dev.homing.bench.soak;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the clients met, counted: cumulative since the load began, or one interval's (the difference of two).
 *
 * @param sent       requests written to the router
 * @param ok         2xx read to their end (a stream's to {@code data: [DONE]})
 * @param errors     responses by status other than 2xx
 * @param lost       requests that got no status at all, by what happened
 * @param cutStreams streams that began (2xx) and did not end with {@code data: [DONE]}, by what happened
 * @param cutBodies  non-streaming 2xx bodies cut short, by what happened
 */
public record Counts(long sent, long ok, SortedMap<Integer, Long> errors, SortedMap<String, Long> lost,
                     SortedMap<String, Long> cutStreams, SortedMap<String, Long> cutBodies) {

    public static final Counts NONE = new Counts(0, 0, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(),
            new TreeMap<>());

    public Counts {
        errors = immutable(errors);
        lost = immutable(lost);
        cutStreams = immutable(cutStreams);
        cutBodies = immutable(cutBodies);
    }

    public long errorCount() {
        return total(errors);
    }

    public long lostCount() {
        return total(lost);
    }

    public long cutStreamCount() {
        return total(cutStreams);
    }

    public long cutBodyCount() {
        return total(cutBodies);
    }

    /** Requests that ended, however they ended. */
    public long ended() {
        return ok + errorCount() + lostCount() + cutStreamCount() + cutBodyCount();
    }

    /** This interval's counts: these, cumulative, less {@code earlier}'s. */
    public Counts minus(Counts earlier) {
        return new Counts(sent - earlier.sent, ok - earlier.ok, minus(errors, earlier.errors),
                minus(lost, earlier.lost), minus(cutStreams, earlier.cutStreams), minus(cutBodies, earlier.cutBodies));
    }

    private static <K> SortedMap<K, Long> minus(SortedMap<K, Long> a, SortedMap<K, Long> b) {
        SortedMap<K, Long> out = new TreeMap<>();
        a.forEach((k, v) -> {
            long d = v - b.getOrDefault(k, 0L);
            if (d != 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    private static long total(Map<?, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private static <K> SortedMap<K, Long> immutable(SortedMap<K, Long> m) {
        return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }
}
