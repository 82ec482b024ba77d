package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetricTest {

    @Test
    void lowerIsBetterMarksTheLowestAndEveryTieAtIt() {
        assertThat(Metric.TTFT_P90.best(new double[] {0.3, 0.1, 0.2, 0.1})).containsExactly(false, true, false, true);
    }

    @Test
    void higherIsBetterMarksTheHighest() {
        assertThat(Metric.OUTPUT_TPS.best(new double[] {10, 30, 20})).containsExactly(false, true, false);
    }

    @Test
    void unknownValuesAreNeverBestAndDoNotCount() {
        assertThat(Metric.HIT_RATE.best(new double[] {Double.NaN, 0.4, 0.5})).containsExactly(false, false, true);
        assertThat(Metric.HIT_RATE.best(new double[] {Double.NaN, 0.4})).as("one known value: nothing to compare")
                .containsExactly(false, false);
    }

    @Test
    void allEqualOrNoDirectionMarksNothing() {
        assertThat(Metric.ERRORS.best(new double[] {0, 0, 0})).containsExactly(false, false, false);
        assertThat(Metric.REQUESTS.best(new double[] {1, 2, 3})).containsExactly(false, false, false);
    }

    @Test
    void valuesThatPrintTheSameTie() {
        // both print 0.123: marking one of them would claim a difference the table does not show
        assertThat(Metric.TTFT_P50.best(new double[] {0.12301, 0.12304, 0.2})).containsExactly(true, true, false);
    }

    @Test
    void formatsInRootLocaleWithUnitsAndADashForNothing() {
        assertThat(Metric.HIT_RATE.format(0.4567)).isEqualTo("45.7%");
        assertThat(Metric.TTFT_P99.format(1.23456)).isEqualTo("1.235");
        assertThat(Metric.OUTPUT_TPS.format(Double.NaN)).isEqualTo("-");
    }
}
