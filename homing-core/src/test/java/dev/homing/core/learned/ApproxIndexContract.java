package dev.homing.core.learned;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ApproxIndex} does with the same records: the in-memory one ({@link InMemoryApproxIndexTest}) and
 * the router's Redis-backed one run these same scenarios.
 */
public abstract class ApproxIndexContract {

    private final EndpointPool pool = Pools.of(3);
    protected final List<EndpointState> all = Pools.states(pool);

    /** A fresh, empty index; each call a separate one. */
    protected abstract ApproxIndex newIndex(long maxEntries);

    /** Waits, where the index writes in the background, until what it recorded so far can be read by others. */
    protected void settle(ApproxIndex index) {
    }

    protected int[] match(ApproxIndex index, long... hashes) {
        settle(index);
        return index.match(hashes, all, all.size());
    }

    @Test
    void countsLeadingBlocksPerEndpoint() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2, 3}, 100);
        index.record("pod-1", new long[] {1, 2}, 100);
        assertThat(match(index, 1, 2, 3, 4)).containsExactly(3, 2, 0);
        assertThat(match(index, 9, 2, 3)).containsExactly(0, 0, 0);
        assertThat(match(index)).containsExactly(0, 0, 0);
    }

    @Test
    void aGapEndsTheMatchEvenIfLaterBlocksArePresent() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 3}, 100);
        index.record("pod-1", new long[] {1, 2, 3}, 100);
        assertThat(match(index, 1, 2, 3)).containsExactly(1, 3, 0);
    }

    @Test
    void onlyCandidatesAreAnswered() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2}, 100);
        index.record("pod-2", new long[] {1}, 100);
        settle(index);
        assertThat(index.match(new long[] {1, 2}, List.of(all.get(2)), 3)).containsExactly(0, 0, 1);
    }

    @Test
    void perEndpointCapacityEvictsTailsOfTheOldestPromptsFirst() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2, 3}, 4);
        index.record("pod-0", new long[] {7, 8}, 4);
        // 5 entries, capacity 4: the oldest is block 3 (the first prompt was recorded tail first)
        settle(index);
        assertThat(index.size("pod-0")).isEqualTo(4);
        assertThat(match(index, 1, 2, 3)).containsExactly(2, 0, 0);
        assertThat(match(index, 7, 8)).containsExactly(2, 0, 0);
    }

    @Test
    void globalBudgetEvictsAcrossEndpoints() {
        ApproxIndex index = newIndex(3);
        index.record("pod-0", new long[] {1, 2}, 100);
        index.record("pod-1", new long[] {5, 6}, 100);
        settle(index);
        assertThat(index.size()).isEqualTo(3);
        assertThat(match(index, 1, 2)).containsExactly(1, 0, 0);
        assertThat(match(index, 5, 6)).containsExactly(0, 2, 0);
    }

    @Test
    void sharedBlocksAreHeldPerEndpointAndRemovalForgetsOne() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2}, 100);
        index.record("pod-1", new long[] {1, 2}, 100);
        index.record("pod-2", new long[] {1}, 100);
        settle(index);
        assertThat(index.size()).isEqualTo(5);
        index.removeEndpoint("pod-1");
        settle(index);
        assertThat(index.size()).isEqualTo(3);
        assertThat(index.size("pod-1")).isZero();
        assertThat(match(index, 1, 2)).containsExactly(2, 0, 1);
        index.removeEndpoint("pod-0");
        index.removeEndpoint("pod-2");
        settle(index);
        assertThat(index.size()).isZero();
        assertThat(match(index, 1)).containsExactly(0, 0, 0);
    }

    @Test
    void reRecordingRefreshesRecency() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1}, 2);
        index.record("pod-0", new long[] {2}, 2);
        index.record("pod-0", new long[] {1}, 2); // 1 is fresh again
        index.record("pod-0", new long[] {3}, 2); // evicts 2
        assertThat(match(index, 1)).containsExactly(1, 0, 0);
        assertThat(match(index, 2)).containsExactly(0, 0, 0);
        assertThat(match(index, 3)).containsExactly(1, 0, 0);
    }

    @Test
    void forgettingARecordLeavesWhatWasHeldBeforeAndWhatLaterRecordsTouched() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2}, 100);
        int stamp = index.record("pod-0", new long[] {1, 2, 3, 4, 5}, 100);
        index.record("pod-0", new long[] {1, 2, 3, 9}, 100); // a later request touched block 3 again
        index.record("pod-1", new long[] {1, 2, 3, 4, 5}, 100);
        // the pick held two blocks before: the record is forgotten from there on, for pod-0 only
        index.forget("pod-0", new long[] {1, 2, 3, 4, 5}, 2, stamp);
        assertThat(match(index, 1, 2, 3, 4, 5)).containsExactly(3, 5, 0);
        settle(index);
        assertThat(index.size("pod-0")).isEqualTo(4); // 1, 2, 3 and 9
        index.forget("pod-2", new long[] {1}, 0, stamp); // an endpoint it never held: nothing happens
        assertThat(match(index, 1)).containsExactly(1, 1, 0);
    }

    @Test
    void aLookupBegunBeforeARecordSeesItWhenFinished() {
        ApproxIndex index = newIndex(100);
        index.record("pod-1", new long[] {1}, 100);
        settle(index);
        ApproxIndex.Lookup lookup = index.lookup(new long[] {1, 2, 3});
        index.record("pod-0", new long[] {1, 2, 3}, 100); // decided while the lookup was on its way
        index.record("pod-2", new long[] {1, 2}, 100);
        assertThat(lookup.match(all, 3)).containsExactly(3, 1, 2);
    }

    @Test
    void aLookupAnswersAsAMatch() {
        ApproxIndex index = newIndex(100);
        index.record("pod-0", new long[] {1, 2, 3}, 100);
        index.record("pod-2", new long[] {1, 2}, 100);
        settle(index);
        assertThat(index.lookup(new long[] {1, 2, 3}).match(all, 3)).containsExactly(3, 0, 2);
        assertThat(index.lookup(new long[] {}).match(all, 3)).containsExactly(0, 0, 0);
    }
}
