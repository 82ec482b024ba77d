package dev.homing.core.learned;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InMemoryNewcomerLruTest extends NewcomerLruContract {

    @Override
    protected NewcomerLru newLru(int size) {
        return new InMemoryNewcomerLru(size);
    }

    @Test
    void theSizeMustBePositive() {
        assertThatThrownBy(() -> new InMemoryNewcomerLru(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
