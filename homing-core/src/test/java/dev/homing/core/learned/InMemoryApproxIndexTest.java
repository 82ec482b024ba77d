package dev.homing.core.learned;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InMemoryApproxIndexTest extends ApproxIndexContract {

    @Override
    protected ApproxIndex newIndex(long maxEntries) {
        return new InMemoryApproxIndex(maxEntries);
    }

    @Test
    void theBudgetMustBePositive() {
        assertThatThrownBy(() -> new InMemoryApproxIndex(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
