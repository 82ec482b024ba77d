package dev.homing.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The soak's goals as the report judges them: each verdict fails when its goal is missed, and only then. */
class SoakReportTest {

    private static final long MIB = 1 << 20;
    private static final SoakSettings SETTINGS = new SoakSettings(Duration.ofMinutes(3), Duration.ofMinutes(1), 4, 0,
            Duration.ofSeconds(90), Duration.ofSeconds(10), 1, Duration.ofSeconds(60), Duration.ofSeconds(60));

    @Test
    void aSteadyRouterAtRestWithNothingLostMeetsEveryGoal() {
        List<Verdict> v = judge(samples(state(100 * MIB, 40, 70), state(110 * MIB, 45, 75)), rest(0, 0), 100, 100);
        assertThat(v).extracting(Verdict::met).containsOnly(true);
        assertThat(v).extracting(Verdict::goal).containsExactly("every sample taken",
                "heap after GC at 3:00 <= 1.1x 2:00", "threads at 3:00 within +-5 of 2:00",
                "file descriptors at 3:00 within +-5 of 2:00", "in flight at rest = 0", "lost = 0");
        assertThat(v.get(1).observed()).isEqualTo("110.0 MiB at 3:00, 100.0 MiB at 2:00: 1.100x");
    }

    @Test
    void heapGrowthBeyondATenthFails() {
        List<Verdict> v = judge(samples(state(100 * MIB, 40, 70), state(111 * MIB, 40, 70)), rest(0, 0), 10, 10);
        assertThat(met(v, "heap")).isFalse();
        assertThat(v.stream().filter(x -> !x.goal().startsWith("heap"))).extracting(Verdict::met).containsOnly(true);
    }

    @Test
    void threadsOrDescriptorsMovingBySixFail() {
        List<Verdict> more = judge(samples(state(MIB, 40, 70), state(MIB, 46, 70)), rest(0, 0), 10, 10);
        assertThat(met(more, "threads")).isFalse();
        assertThat(met(more, "file descriptors")).isTrue();
        List<Verdict> fewer = judge(samples(state(MIB, 40, 70), state(MIB, 40, 64)), rest(0, 0), 10, 10);
        assertThat(met(fewer, "file descriptors")).isFalse();
        assertThat(met(fewer, "threads")).isTrue();
    }

    @Test
    void anythingInFlightAtRestOrUnreadFails() {
        assertThat(met(judge(samples(state(MIB, 1, 1), state(MIB, 1, 1)), rest(1, 0), 10, 10), "in flight")).isFalse();
        assertThat(met(judge(samples(state(MIB, 1, 1), state(MIB, 1, 1)), rest(0, 2), 10, 10), "in flight")).isFalse();
        assertThat(met(judge(samples(state(MIB, 1, 1), state(MIB, 1, 1)), rest(Double.NaN, 0), 10, 10), "in flight"))
                .isFalse();
    }

    @Test
    void aLostRequestOrOneThatNeverEndedFails() {
        Counts lost = new Counts(10, 9, new TreeMap<>(), new TreeMap<>(java.util.Map.of("reset before any byte", 1L)),
                new TreeMap<>(), new TreeMap<>());
        List<Verdict> v = SoakReport.judge(SETTINGS, samples(state(MIB, 1, 1), state(MIB, 1, 1)), rest(0, 0), 0, true,
                lost);
        assertThat(met(v, "lost")).isFalse();
        assertThat(met(judge(samples(state(MIB, 1, 1), state(MIB, 1, 1)), rest(0, 0), 10, 9), "lost")).isFalse();
    }

    @Test
    void aMissingOrIncompleteSampleFails() {
        List<Sample> two = samples(state(MIB, 1, 1), state(MIB, 1, 1));
        List<Sample> short1 = new ArrayList<>(two.subList(0, 2));
        assertThat(met(judge(short1, rest(0, 0), 10, 10), "every sample")).isFalse();
        List<Sample> broken = new ArrayList<>(two);
        broken.set(1, sample("2:00", new RouterState(-1, 1, 1, 1, 0, 0, "heap: jcmd failed")));
        assertThat(met(judge(broken, rest(0, 0), 10, 10), "every sample")).isFalse();
    }

    @Test
    void countsOfAnIntervalAreTheDifferenceOfTwoSnapshots() {
        Counts a = new Counts(10, 8, new TreeMap<>(java.util.Map.of(502, 1L)), new TreeMap<>(),
                new TreeMap<>(java.util.Map.of("closed mid-stream", 1L)), new TreeMap<>());
        Counts b = new Counts(26, 20, new TreeMap<>(java.util.Map.of(502, 1L, 503, 2L)), new TreeMap<>(),
                new TreeMap<>(java.util.Map.of("closed mid-stream", 3L)), new TreeMap<>());
        Counts d = b.minus(a);
        assertThat(d.sent()).isEqualTo(16);
        assertThat(d.ok()).isEqualTo(12);
        assertThat(d.errors()).containsExactly(java.util.Map.entry(503, 2L));
        assertThat(d.cutStreams()).containsExactly(java.util.Map.entry("closed mid-stream", 2L));
        assertThat(b.ended()).isEqualTo(26); // 20 answered, 3 errors, 3 cut
    }

    @Test
    void killsArePlannedOnlyWhenTheirRestartBeginsBeforeTheEnd() {
        assertThat(Faults.planned(Duration.ofSeconds(90), Duration.ofSeconds(10), Duration.ofMinutes(10))).isEqualTo(6);
        assertThat(Faults.planned(Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(Faults.planned(Duration.ZERO, Duration.ofSeconds(5), Duration.ofMinutes(1))).isZero();
    }

    /** Three samples under load: the first a warm-up, then {@code second} at 2:00 and {@code last} at 3:00. */
    private static List<Sample> samples(RouterState second, RouterState last) {
        return List.of(sample("1:00", state(500 * MIB, 90, 90)), sample("2:00", second), sample("3:00", last));
    }

    private static RouterState state(long heap, int threads, int fds) {
        return new RouterState(heap, threads, fds, 100 * MIB, 4, 4, "");
    }

    private static Sample rest(double inFlight, double running) {
        return sample("rest", new RouterState(MIB, 1, 1, MIB, inFlight, running, ""));
    }

    private static Sample sample(String label, RouterState s) {
        return new Sample(label, 0, s, Counts.NONE, null, null, null, List.of());
    }

    private static List<Verdict> judge(List<Sample> samples, Sample rest, long sent, long ok) {
        Counts totals = new Counts(sent, ok, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
        return SoakReport.judge(SETTINGS, samples, rest, 0, true, totals);
    }

    private static boolean met(List<Verdict> v, String goal) {
        return v.stream().filter(x -> x.goal().startsWith(goal)).findFirst().orElseThrow().met();
    }
}
