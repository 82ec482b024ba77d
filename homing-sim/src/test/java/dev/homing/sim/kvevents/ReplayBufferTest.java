package dev.homing.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayBufferTest {

    @Test
    void keepsTheLastBatchesAndAnswersFromAStart() {
        ReplayBuffer b = new ReplayBuffer(3);
        for (long seq = 0; seq < 5; seq++) {
            b.add(seq, new byte[] {(byte) seq});
        }
        assertThat(b.size()).isEqualTo(3);
        assertThat(b.from(0)).extracting(ReplayBuffer.Entry::seq).containsExactly(2L, 3L, 4L);
        assertThat(b.from(3)).extracting(ReplayBuffer.Entry::seq).containsExactly(3L, 4L);
        assertThat(b.from(5)).isEmpty();
        assertThat(b.from(-1)).as("FF..FF as a start is the largest, not -1").isEmpty();
    }
}
