package dev.homing.bench.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.learned.ApproxIndex;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.learned.NewcomerLru;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model of replicas sharing learned state through Redis: each replica's changes reach the others a lag late. */
class LaggedLearnedStateTest {

    private static final long LAG = 5_000_000;
    private final long[] now = {0};
    private final List<EndpointState> pods = pods();

    private static List<EndpointState> pods() {
        EndpointPool pool = new EndpointPool();
        pool.setEndpoints(List.of(new Endpoint("pod-0", "10.0.0.1", 8000), new Endpoint("pod-1", "10.0.0.2", 8000)));
        return pool.snapshot().endpoints();
    }

    @Test
    void aRecordReachesTheOtherReplicaOnceTheLagHasPassedAndItsForgetFollows() {
        LaggedLearnedState shared = new LaggedLearnedState(() -> now[0], 2, LAG);
        ApproxIndex a = shared.replica(0).approxIndex("approx", 100);
        ApproxIndex b = shared.replica(1).approxIndex("approx", 100);
        int stamp = a.record("pod-1", new long[] {1, 2, 3}, 100);
        assertThat(a.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 3);
        now[0] = LAG - 1;
        assertThat(b.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 0);
        now[0] = LAG;
        assertThat(b.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 3);

        a.forget("pod-1", new long[] {1, 2, 3}, 1, stamp); // served elsewhere; block 1 was there before
        assertThat(b.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 3);
        now[0] = 2 * LAG;
        assertThat(b.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 1);
        assertThat(a.match(new long[] {1, 2, 3}, pods, 2)).containsExactly(0, 1);
    }

    @Test
    void aReceiptReachesTheOtherReplicasOrderOnceTheLagHasPassed() {
        LaggedLearnedState shared = new LaggedLearnedState(() -> now[0], 2, LAG);
        NewcomerLru a = shared.replica(0).newcomerLru("newcomers", 8);
        NewcomerLru b = shared.replica(1).newcomerLru("newcomers", 8);
        a.received("pod-1");
        b.received("pod-0");
        assertThat(b.leastRecentFirst()).containsExactly("pod-0");
        now[0] = LAG;
        assertThat(b.leastRecentFirst()).containsExactly("pod-0", "pod-1");
        assertThat(a.leastRecentFirst()).containsExactly("pod-1", "pod-0");
    }

    @Test
    void unsharedReplicasNeverSeeEachOthersChanges() {
        LaggedLearnedState apart = LaggedLearnedState.unshared(() -> now[0], 2);
        LearnedState first = apart.replica(0);
        LearnedState second = apart.replica(1);
        first.approxIndex("approx", 100).record("pod-1", new long[] {1, 2}, 100);
        first.newcomerLru("newcomers", 8).received("pod-1");
        now[0] = Long.MAX_VALUE / 2;
        assertThat(second.approxIndex("approx", 100).match(new long[] {1, 2}, pods, 2)).containsExactly(0, 0);
        assertThat(second.newcomerLru("newcomers", 8).leastRecentFirst()).isEmpty();
    }

    @Test
    void aLaggedReplicasPolicyIsNamedWithItsLag() {
        PolicyContext ctx = new PolicyContext(List.of("pod-0", "pod-1"), () -> now[0], 1, 16);
        assertThat(Policies.isKnown("homing-2-replicas-lag-20ms")).isTrue();
        assertThat(Policies.isKnown("homing-2-replicas-lag-ms")).isFalse();
        assertThat(Policies.create("homing-2-replicas-lag-20ms", ctx).name()).isEqualTo("homing-2-replicas-lag-20ms");
    }
}
