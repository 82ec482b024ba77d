package dev.homing.core.plugins.prefix.approx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApproxPrefixIndexTest {

    private final EndpointPool pool = Pools.of(3);
    private final List<EndpointState> all = Pools.states(pool);

    private int[] match(ApproxPrefixIndex index, long... hashes) {
        return index.match(hashes, all, all.size());
    }

    @Test
    void countsLeadingBlocksPerEndpoint() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(100);
        index.record("pod-0", new long[] {1, 2, 3}, 100);
        index.record("pod-1", new long[] {1, 2}, 100);
        assertThat(match(index, 1, 2, 3, 4)).containsExactly(3, 2, 0);
        assertThat(match(index, 9, 2, 3)).containsExactly(0, 0, 0);
    }

    @Test
    void aGapEndsTheMatchEvenIfLaterBlocksArePresent() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(100);
        index.record("pod-0", new long[] {1, 3}, 100);
        index.record("pod-1", new long[] {1, 2, 3}, 100);
        assertThat(match(index, 1, 2, 3)).containsExactly(1, 3, 0);
    }

    @Test
    void perEndpointCapacityEvictsTailsOfTheOldestPromptsFirst() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(100);
        index.record("pod-0", new long[] {1, 2, 3}, 4);
        index.record("pod-0", new long[] {7, 8}, 4);
        // 5 entries, capacity 4: the oldest is block 3 (the first prompt was recorded tail first)
        assertThat(index.size("pod-0")).isEqualTo(4);
        assertThat(match(index, 1, 2, 3)).containsExactly(2, 0, 0);
        assertThat(match(index, 7, 8)).containsExactly(2, 0, 0);
    }

    @Test
    void globalBudgetEvictsAcrossEndpoints() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(3);
        index.record("pod-0", new long[] {1, 2}, 100);
        index.record("pod-1", new long[] {5, 6}, 100);
        assertThat(index.size()).isEqualTo(3);
        assertThat(match(index, 1, 2)).containsExactly(1, 0, 0);
        assertThat(match(index, 5, 6)).containsExactly(0, 2, 0);
    }

    @Test
    void sharedBlocksAreHeldPerEndpointAndRemovalForgetsOne() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(100);
        index.record("pod-0", new long[] {1, 2}, 100);
        index.record("pod-1", new long[] {1, 2}, 100);
        index.record("pod-2", new long[] {1}, 100);
        assertThat(index.size()).isEqualTo(5);
        index.removeEndpoint("pod-1");
        assertThat(index.size()).isEqualTo(3);
        assertThat(match(index, 1, 2)).containsExactly(2, 0, 1);
        index.removeEndpoint("pod-0");
        index.removeEndpoint("pod-2");
        assertThat(index.size()).isZero();
        assertThat(match(index, 1)).containsExactly(0, 0, 0);
    }

    @Test
    void reRecordingRefreshesRecency() {
        ApproxPrefixIndex index = new ApproxPrefixIndex(100);
        index.record("pod-0", new long[] {1}, 2);
        index.record("pod-0", new long[] {2}, 2);
        index.record("pod-0", new long[] {1}, 2); // 1 is fresh again
        index.record("pod-0", new long[] {3}, 2); // evicts 2
        assertThat(match(index, 1)).containsExactly(1, 0, 0);
        assertThat(match(index, 2)).containsExactly(0, 0, 0);
        assertThat(match(index, 3)).containsExactly(1, 0, 0);
    }
}
