package dev.homing.core.plugins.scorer.predicted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.PrefillWork;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TtftModelTest {

    private static final long S = 1_000_000_000L;

    /** A prefill of {@code u} new tokens after {@code c} cached ones, nothing decoding beside it. */
    private static TtftModel.Work work(long u, long c) {
        return new TtftModel.Work(u, PrefillWork.of(u, c), 0, 0);
    }

    /** The law the tests teach: 0.14 s + 71.3 µs a token + 13.2 ns per 10 attention pairs (Llama-70B TP4's). */
    private static double law(TtftModel.Work w) {
        return 0.14 + 0.713 * w.uncached() / 1e4 + 0.132 * w.attention() / 1e8;
    }

    /** A model that has seen {@code n} unqueued requests answered by the law on pod "p". */
    private static TtftModel trained(int n) {
        TtftModel m = new TtftModel();
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            TtftModel.Work w = work(r.nextLong(100, 40_000), r.nextLong(0, 20_000));
            TtftModel.Pending p = m.enqueue("p", w, i * S);
            m.firstToken("p", p, true, m.predict("p", w, 0, i * S), law(w), i * S);
        }
        return m;
    }

    @Test
    void untilItHasSeenEnoughItPredictsNothingAndPricesNoBacklog() {
        TtftModel m = trained(TtftModel.MATURE - 1);
        assertThat(m.trusted()).isFalse();
        assertThat(m.predict("p", work(1000, 0), 0, 0)).isNaN();
        m.enqueue("p", work(30_000, 0), 100 * S);
        assertThat(m.backlog("p", 100 * S)).isZero();
        assertThat(m.queued("p")).isTrue();
    }

    @Test
    void anIdlePodsPredictionIsTheLearntLawByHand() {
        TtftModel m = trained(100);
        assertThat(m.trusted()).isTrue();
        // 20k new tokens after 10k cached: 0.14 + 0.713 x 2 + 0.132 x (20,000 x 20,000 / 1e8) = 2.094 s
        assertThat(m.predict("q", work(20_000, 10_000), 0, 0)).isCloseTo(2.094, within(1e-3));
        // and behind 1.5 s of backlog
        assertThat(m.predict("q", work(20_000, 10_000), 1.5, 0)).isCloseTo(3.594, within(1e-3));
        assertThat(m.seconds(work(20_000, 10_000))).isCloseTo(1.954, within(1e-3));
    }

    @Test
    void aWorksSecondsAreItsFeaturesPricedPastTheIntercept() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 100; i++) {
            TtftModel.Work w = new TtftModel.Work(r.nextLong(0, 100_000), r.nextDouble(0, 1e9), r.nextInt(0, 200), 0);
            double[] theta = new double[TtftModel.FEATURES];
            for (int k = 0; k < theta.length; k++) {
                theta[k] = r.nextDouble(-0.1, 1);
            }
            double[] x = w.features();
            assertThat(x).hasSize(TtftModel.FEATURES);
            double dot = 0;
            for (int k = 1; k < x.length; k++) {
                dot += theta[k] * x[k];
            }
            assertThat(w.seconds(theta)).isEqualTo(Math.max(0, dot));
        }
    }

    @Test
    void aPodsDecodeBatchIsLearntAsTheLongerStepItMakes() {
        // the law plus 2 ms a decoding request (a step's decode share), on prompts short and long
        TtftModel m = new TtftModel();
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < 400; i++) {
            long u = r.nextLong(100, 20_000);
            long c = r.nextLong(0, 10_000);
            int decoding = r.nextInt(0, 128);
            TtftModel.Work w = new TtftModel.Work(u, PrefillWork.of(u, c), decoding, 0);
            TtftModel.Pending p = m.enqueue("p", w, i * S);
            m.firstToken("p", p, true, Double.NaN, law(w) + 0.002 * decoding, i * S);
        }
        // a 300-token question after a cached 3,000-token system prompt: 0.128 s slower beside 64 decoding requests
        TtftModel.Work idle = new TtftModel.Work(300, PrefillWork.of(300, 3000), 0, 0);
        TtftModel.Work busy = new TtftModel.Work(300, PrefillWork.of(300, 3000), 64, 0);
        assertThat(m.predict("q", busy, 0, 0) - m.predict("q", idle, 0, 0)).isCloseTo(0.128, within(2e-3));
        assertThat(m.coefficients()[4]).isCloseTo(0.128, within(2e-3));
    }

    @Test
    void theBacklogIsThePendingWorkWhoseHeadDrainsInRealTime() {
        TtftModel m = trained(100);
        long t0 = 1_000 * S;
        // w1 = 0.713 + 0.132 x 0.5 = 0.779 s; w2 = 1.426 + 0.132 x 2 = 1.690 s
        TtftModel.Pending first = m.enqueue("r", work(10_000, 0), t0);
        m.enqueue("r", work(20_000, 0), t0 + S / 10);
        assertThat(m.backlog("r", t0 + 3 * S / 10)).isCloseTo(1.690 + 0.779 - 0.3, within(1e-3));
        // past the head's predicted end, the pod is late, not idle: the second still waits whole
        assertThat(m.backlog("r", t0 + 2 * S)).isCloseTo(1.690, within(1e-3));
        m.firstToken("r", first, false, Double.NaN, 0.8, t0 + 8 * S / 10);
        assertThat(m.backlog("r", t0 + S)).isCloseTo(1.690 - 0.2, within(1e-3));
        assertThat(m.pendingCount("r")).isEqualTo(1);
    }

    @Test
    void aQueuedRequestTeachesTheSpeedFactorNotTheLaw() {
        TtftModel m = trained(100);
        double before = m.coefficients()[2];
        TtftModel.Work w = work(10_000, 0);
        for (int i = 0; i < 200; i++) {
            TtftModel.Pending p = m.enqueue("slow", w, 2_000 * S + i);
            double predicted = m.predict("slow", w, 0, 2_000 * S + i);
            m.firstToken("slow", p, false, predicted, 2 * law(w), 2_000 * S + i);
        }
        assertThat(m.coefficients()[2]).isEqualTo(before);
        assertThat(m.coefficients()).hasSize(TtftModel.FEATURES);
        assertThat(m.speed("slow", 2_000 * S + 200)).isCloseTo(2.0, within(0.05));
        assertThat(m.predict("slow", w, 0, 2_000 * S + 200)).isCloseTo(2 * law(w), within(0.05));
        // unobserved for ten half-lives, it is tried at the fleet's speed again
        assertThat(m.speed("slow", 2_000 * S + 3_000 * S)).isCloseTo(1.0, within(0.01));
    }

    @Test
    void requestsThatNeverAnswerLeaveTheQueueAndPodsAreBounded() {
        TtftModel m = trained(100);
        TtftModel.Pending p = m.enqueue("x", work(50_000, 0), 0);
        m.abandon("x", p);
        assertThat(m.pendingCount("x")).isZero();
        assertThat(m.backlog("x", 0)).isZero();
        m.forget("x");
        for (int i = 0; i < TtftModel.MAX_ENDPOINTS + 10; i++) {
            m.enqueue("pod-" + i, work(10, 0), 0);
        }
        assertThat(m.endpointCount()).isEqualTo(TtftModel.MAX_ENDPOINTS);
    }
}
