package dev.homing.core.plugins.scorer.predicted;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PredictionLogTest {

    /** Selection finds what sorting would put at each rank, ties and repeats included. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void selectAgreesWithSortingAtEveryRank(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(80);
            double[] a = new double[n];
            for (int i = 0; i < n; i++) {
                a[i] = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextDouble() * 10; // repeats
            }
            double[] sorted = a.clone();
            Arrays.sort(sorted);
            for (int k = 0; k < n; k++) {
                assertThat(PredictionLog.select(a.clone(), k)).as("n %d, k %d", n, k).isEqualTo(sorted[k]);
            }
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"1, 1000", "2, 1000", "7, 1000", "64, 1000", "65, 1000",
            "200, 1000", "200, 50"})
    void theRecentMedianIsTheNearestRankMedianOfTheLastN(int count, int capacity) {
        PredictionLog log = new PredictionLog(capacity);
        SplittableRandom random = new SplittableRandom(count);
        double[] errors = new double[count];
        for (int i = 0; i < count; i++) {
            double observed = 0.1 + random.nextDouble();
            double predicted = observed * (0.5 + random.nextDouble());
            log.record(predicted, observed);
            errors[i] = Math.abs((predicted - observed) / observed);
        }
        int n = Math.min(Math.min(count, 64), capacity); // a ring of `capacity` keeps only its last ones
        double[] last = Arrays.copyOfRange(errors, count - n, count);
        Arrays.sort(last);
        assertThat(log.recentMedianError(64)).isEqualTo(last[(int) Math.ceil(0.5 * n) - 1]);
    }
}
