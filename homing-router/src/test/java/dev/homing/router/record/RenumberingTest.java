package dev.homing.router.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RenumberingTest {

    @Test
    void numbersKeysInFirstSeenOrderAndGivesARepeatedKeyItsNumber() {
        Renumbering r = new Renumbering(100);
        assertThat(r.number(0xDEADBEEFL)).isZero();
        assertThat(r.number(-7)).isEqualTo(1);
        assertThat(r.number(0xDEADBEEFL)).isZero();
        assertThat(r.number(0)).isEqualTo(2);
        assertThat(r.contains(-7)).isTrue();
        assertThat(r.contains(8)).isFalse();
        assertThat(r.size()).isEqualTo(3);
    }

    @Test
    void keepsEveryNumberAsItGrows() {
        Renumbering r = new Renumbering(1 << 16);
        for (int i = 0; i < 50_000; i++) {
            assertThat(r.number(i * 0x9E3779B97F4A7C15L)).isEqualTo(i);
        }
        for (int i = 49_999; i >= 0; i--) {
            assertThat(r.number(i * 0x9E3779B97F4A7C15L)).isEqualTo(i);
        }
    }

    @Test
    void isBoundedAndClearRestartsAtZero() {
        Renumbering r = new Renumbering(3);
        r.number(10);
        r.number(11);
        assertThat(r.fits(1)).isTrue();
        assertThat(r.fits(2)).isFalse();
        r.number(12);
        assertThat(r.number(11)).isEqualTo(1); // a known key still answers when full
        assertThatThrownBy(() -> r.number(13)).isInstanceOf(IllegalStateException.class);
        r.clear();
        assertThat(r.number(12)).isZero();
        assertThat(r.contains(10)).isFalse();
    }
}
