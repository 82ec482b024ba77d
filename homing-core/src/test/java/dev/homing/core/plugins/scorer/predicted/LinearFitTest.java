package dev.homing.core.plugins.scorer.predicted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class LinearFitTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void recoversTheCoefficientsOfALinearLaw(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        LinearFit f = new LinearFit(3, 1);
        for (int i = 0; i < 200; i++) {
            double x1 = r.nextDouble(0, 5);
            double x2 = r.nextDouble(0, 3);
            f.observe(new double[] {1, x1, x2}, 0.14 + 0.713 * x1 + 0.132 * x2);
        }
        assertThat(f.coefficient(0)).isCloseTo(0.14, within(1e-4));
        assertThat(f.coefficient(1)).isCloseTo(0.713, within(1e-4));
        assertThat(f.coefficient(2)).isCloseTo(0.132, within(1e-4));
        assertThat(f.predict(new double[] {1, 2, 1})).isCloseTo(0.14 + 1.426 + 0.132, within(1e-3));
        assertThat(f.observations()).isEqualTo(200);
    }

    @Test
    void aFeatureThatCanOnlyDelayNeverGetsANegativePriceButTheInterceptMay() {
        SplittableRandom r = new SplittableRandom(7);
        LinearFit f = new LinearFit(3, 1);
        for (int i = 0; i < 300; i++) {
            double x1 = r.nextDouble(0, 5);
            double x2 = r.nextDouble(0, 3);
            // the truth has x2 lowering y: the fit leaves x2 out and prices x1 alone
            f.observe(new double[] {1, x1, x2}, -0.2 + 0.5 * x1 - 0.3 * x2);
        }
        assertThat(f.coefficient(2)).isZero();
        assertThat(f.coefficient(1)).isPositive();
        assertThat(f.coefficient(0)).isNegative();
    }

    @Test
    void aFeatureThatStaysConstantForThousandsOfObservationsCannotSendTheFitAway() {
        // the failure that retired recursive least squares here: with forgetting, its covariance grew without bound
        // along a feature that stayed 0, and the first observation that moved it swung θ by orders of magnitude
        SplittableRandom r = new SplittableRandom(3);
        LinearFit f = new LinearFit(4, 0.999);
        for (int i = 0; i < 20_000; i++) {
            double x1 = 0.05 + r.nextDouble(0, 0.01);
            f.observe(new double[] {1, x1, 0, 1}, 0.285 + 0.66 * x1 + r.nextDouble(-0.01, 0.01));
        }
        f.observe(new double[] {1, 0.05, 100, 1}, 0.4);
        for (int i = 0; i < 4; i++) {
            assertThat(Math.abs(f.coefficient(i))).as("coefficient %d", i).isLessThan(10);
        }
        assertThat(f.predict(new double[] {1, 0.055, 0, 1})).isCloseTo(0.32, within(0.02));
    }

    @Test
    void forgettingFollowsAPodThatGetsSlower() {
        LinearFit f = new LinearFit(2, 0.99);
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 2_000; i++) {
            double x = r.nextDouble(0, 4);
            f.observe(new double[] {1, x}, 0.1 + 0.5 * x);
        }
        for (int i = 0; i < 2_000; i++) {
            double x = r.nextDouble(0, 4);
            f.observe(new double[] {1, x}, 0.1 + 1.0 * x); // half the speed now
        }
        assertThat(f.coefficient(1)).isCloseTo(1.0, within(0.01));
    }

    @Test
    void nothingObservedPredictsZeroAndNonFiniteObservationsAreIgnored() {
        LinearFit f = new LinearFit(2, 1);
        assertThat(f.predict(new double[] {1, 3})).isZero();
        f.observe(new double[] {1, Double.NaN}, 1);
        f.observe(new double[] {1, 2}, Double.POSITIVE_INFINITY);
        f.observe(new double[] {1}, 1);
        assertThat(f.observations()).isZero();
    }
}
