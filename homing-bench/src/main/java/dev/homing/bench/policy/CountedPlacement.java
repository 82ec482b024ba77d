package dev.homing.bench.policy;

/**
 * A placement that holds one unit of a policy's per-pod request count from the pick until the request ends, released
 * once whatever {@link #finished} is told (the peers count their own requests in flight, not scraped ones).
 */
final class CountedPlacement implements Placement {

    private final int[] counts;
    private final int pod;
    private boolean released;

    /** Counts the request on {@code pod} at once. */
    CountedPlacement(int[] counts, int pod) {
        this.counts = counts;
        this.pod = pod;
        counts[pod]++;
    }

    @Override
    public int pod() {
        return pod;
    }

    @Override
    public void finished(long nanos) {
        if (!released) {
            released = true;
            counts[pod]--;
        }
    }
}
