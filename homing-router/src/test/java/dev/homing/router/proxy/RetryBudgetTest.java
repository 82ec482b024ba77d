package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryBudgetTest {

    @Test
    void retriesUnderWayAreAShareOfRequestsUnderWayButNeverFewerThanTheMinimum() {
        RetryBudget b = new RetryBudget(20);
        for (int i = 0; i < 50; i++) {
            b.started();
        }
        int granted = 0;
        while (b.tryRetry()) {
            granted++;
        }
        assertThat(granted).isEqualTo(10); // 20 % of 50
        b.ended(3); // a request that held three retries ends
        assertThat(b.retrying()).isEqualTo(7);
        assertThat(b.active()).isEqualTo(49);
        assertThat(b.tryRetry()).isTrue();

        RetryBudget few = new RetryBudget(20);
        few.started();
        assertThat(few.tryRetry()).isTrue();
        assertThat(few.tryRetry()).isTrue();
        assertThat(few.tryRetry()).as("at least %d at once", RetryBudget.MIN_CONCURRENT).isTrue();
        assertThat(few.tryRetry()).isFalse();
    }

    @Test
    void aZeroBudgetRetriesNothing() {
        RetryBudget b = new RetryBudget(0);
        b.started();
        assertThat(b.tryRetry()).isFalse();
        assertThatThrownBy(() -> new RetryBudget(101)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 12})
    void backOffIsAFullJitterUnderAGrowingCeiling(int attempt) {
        RetryBudget b = new RetryBudget(20);
        long ceiling = Math.min(RetryBudget.MAX_MILLIS, RetryBudget.BASE_MILLIS << (attempt - 1));
        long max = 0;
        for (int i = 0; i < 2000; i++) {
            long w = b.backOffMillis(attempt);
            assertThat(w).isBetween(0L, ceiling);
            max = Math.max(max, w);
        }
        assertThat(max).as("the waits spread up to the ceiling").isGreaterThan(ceiling / 2);
    }
}
