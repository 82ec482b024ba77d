package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodMetricsTest {

    @Test
    void oneTwoFiveBucketsStopAtTheLimitAsVllms() {
        assertThat(PodMetrics.oneTwoFive(1)).containsExactly(1);
        assertThat(PodMetrics.oneTwoFive(64)).containsExactly(1, 2, 5, 10, 20, 50);
        assertThat(PodMetrics.oneTwoFive(100)).containsExactly(1, 2, 5, 10, 20, 50, 100);
        assertThat(PodMetrics.oneTwoFive(40_960)).endsWith(10_000, 20_000);
    }
}
