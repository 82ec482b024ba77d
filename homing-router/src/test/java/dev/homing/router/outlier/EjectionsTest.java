package dev.homing.router.outlier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EjectionsTest {

    private static final long SECOND = 1_000_000_000L;
    /** A clock that starts below zero, as System.nanoTime may. */
    private final AtomicLong now = new AtomicLong(-5 * SECOND);
    private final Ejections ejections = new Ejections(now::get);

    private void fail(String pod, int times) {
        for (int i = 0; i < times; i++) {
            ejections.failed(pod);
        }
    }

    @Test
    void failuresInARowEjectForAGrowingTimeAndASuccessReadmits() {
        fail("p", Ejections.CONSECUTIVE - 1);
        assertThat(ejections.ejected("p")).as("two failures are not yet an outlier").isFalse();
        ejections.failed("p");
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(SECOND - 1);
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(1);
        assertThat(ejections.ejected("p")).as("1 s on the first ejection").isFalse();
        ejections.failed("p"); // on probation: one failure ejects again, for twice as long
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(2 * SECOND - 1);
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(1);
        ejections.succeeded("p");
        assertThat(ejections.ejected("p")).isFalse();
        fail("p", Ejections.CONSECUTIVE - 1);
        assertThat(ejections.ejected("p")).as("readmitted: the count starts over").isFalse();
        ejections.failed("p");
        now.addAndGet(SECOND);
        assertThat(ejections.ejected("p")).as("and the time too").isFalse();
        assertThat(visit()).containsExactly("p ejected=false ejections=3 readmissions=1");
    }

    @Test
    void aSuccessBreaksTheRowAndOutcomesDuringAnEjectionDoNotCount() {
        fail("p", Ejections.CONSECUTIVE - 1);
        ejections.succeeded("p");
        fail("p", Ejections.CONSECUTIVE - 1);
        assertThat(ejections.ejected("p")).isFalse();
        ejections.failed("p");
        fail("p", 10); // requests sent before it was ejected, failing as they end
        ejections.succeeded("p");
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(SECOND);
        assertThat(ejections.ejected("p")).as("still 1 s: the late failures did not lengthen it").isFalse();
    }

    @Test
    void theTimeIsCappedAndAPodThatLeftIsForgotten() {
        fail("p", Ejections.CONSECUTIVE);
        for (int i = 0; i < 12; i++) { // 1, 2, 4, ... s: capped at 60
            now.addAndGet(Ejections.MAX.toNanos());
            ejections.failed("p");
        }
        now.addAndGet(Ejections.MAX.toNanos() - 1);
        assertThat(ejections.ejected("p")).isTrue();
        now.addAndGet(1);
        assertThat(ejections.ejected("p")).isFalse();
        ejections.forget("p");
        assertThat(visit()).isEmpty();
        assertThat(ejections.ejected("never-failed")).isFalse();
    }

    private List<String> visit() {
        List<String> out = new ArrayList<>();
        ejections.forEach((pod, ejected, n, back) -> out.add(pod + " ejected=" + ejected + " ejections=" + n
                + " readmissions=" + back));
        return out;
    }
}
