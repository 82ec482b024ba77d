package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScaleTest {

    @Test
    void fromZeroEndsOnARoundTickAtOrAboveTheMaximum() {
        Scale s = Scale.fromZero(7.3);
        assertThat(s.log()).isFalse();
        assertThat(s.ticks()).containsExactly(0.0, 2.0, 4.0, 6.0, 8.0);
        assertThat(s.fraction(4)).isCloseTo(0.5, within(1e-12));
        assertThat(Scale.fromZero(1).ticks()).containsExactly(0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0007, 0.013, 1, 3.7, 99.9, 1234, 65_000})
    void ticksCoverTheMaximumInAboutFiveSteps(double max) {
        Scale s = Scale.fromZero(max);
        assertThat(s.max()).isGreaterThanOrEqualTo(max);
        assertThat(s.ticks().size()).isBetween(3, 11);
        assertThat(s.ticks().getLast()).isEqualTo(s.max());
    }

    @Test
    void nothingToShowStillMakesAnAxis() {
        assertThat(Scale.fromZero(0).max()).isEqualTo(1);
        assertThat(Scale.fromZero(Double.NaN).max()).isEqualTo(1);
    }

    @Test
    void wideRangeGoesLogOverWholeDecades() {
        Scale s = Scale.auto(0.05, 0.2, 6.3);
        assertThat(s.log()).isTrue();
        assertThat(s.min()).isCloseTo(0.01, within(1e-15));
        assertThat(s.max()).isCloseTo(10, within(1e-12));
        assertThat(s.ticks()).containsExactly(0.01, 0.1, 1.0, 10.0);
        assertThat(s.fraction(0.1)).isCloseTo(1 / 3.0, within(1e-9));
        assertThat(s.shows(0)).isFalse();
    }

    @Test
    void narrowRangeOrAZeroStaysLinear() {
        assertThat(Scale.auto(0.1, 0.3).log()).isFalse();
        assertThat(Scale.auto(0, 0.01, 100).log()).as("zero has no place on a log axis").isFalse();
        assertThat(Scale.auto(Double.NaN, 1, 2).log()).isFalse();
    }

    @Test
    void fewDecadesGetIntermediateTicks() {
        assertThat(Scale.log(0.15, 0.8).ticks()).containsExactly(0.1, 0.2, 0.5, 1.0);
    }

    @Test
    void labelsAreShort() {
        assertThat(Scale.label(0)).isEqualTo("0");
        assertThat(Scale.label(0.30000000000000004)).isEqualTo("0.3");
        assertThat(Scale.label(2.5)).isEqualTo("2.5");
        assertThat(Scale.label(25_000)).isEqualTo("25k");
        assertThat(Scale.label(0.001)).isEqualTo("0.001");
    }
}
