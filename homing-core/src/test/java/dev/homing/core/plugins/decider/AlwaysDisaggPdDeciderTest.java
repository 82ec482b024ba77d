package dev.homing.core.plugins.decider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import org.junit.jupiter.api.Test;

class AlwaysDisaggPdDeciderTest {

    @Test
    void alwaysDisaggregatesWhateverThePrefix() {
        EndpointPool pool = Pools.of(1);
        AlwaysDisaggPdDecider d = new AlwaysDisaggPdDecider(null);
        assertThat(d.disaggregate(Cycles.withPrefix(pool, 4, 4), pool.snapshot().get("pod-0"))).isTrue();
        assertThat(d.disaggregate(Cycles.of(pool), pool.snapshot().get("pod-0"))).isTrue();
        assertThat(d.type()).isEqualTo("always-disagg-pd-decider");
    }
}
