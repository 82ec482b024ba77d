package dev.homing.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodDiagnosticsTest {

    private static final long MS = 1_000_000L;

    /** A served request without front-end overhead: times in ms from the run's start. */
    private static RequestRecord served(String id, String pod, long arrivalMs, long queueMs, long ttftMs, int prompt,
                                        int cached) {
        return new RequestRecord(id, 0, arrivalMs * MS, pod, 200, ttftMs * MS, (ttftMs + 10) * MS, prompt, cached, 5,
                queueMs * MS, queueMs * MS);
    }

    @Test
    void workPerPodRequestsBehindALongPrefillAndQueueAgainstOwnPrefill() {
        List<RequestRecord> records = List.of(
                // pod-a: a 10,000-token cold prefill running over [0, 2000) ms
                served("long", "pod-a", 0, 0, 2000, 10_000, 0),
                // queued over [500, 1500): behind it
                served("behind", "pod-a", 500, 1000, 1800, 1000, 500),
                // queued over [3000, 3200), after it: not behind
                served("after", "pod-a", 3000, 200, 500, 100, 0),
                // queued from the instant it ended, [2000, 2100): not behind
                served("edge", "pod-a", 2000, 100, 400, 100, 0),
                // pod-b: queued during pod-a's long prefill, but on another pod; its own 1,000 uncached are short
                served("elsewhere", "pod-b", 100, 400, 1000, 9000, 8000),
                // failed: counts nowhere
                new RequestRecord("failed", 0, 0, null, 503, -1, -1, 50, -1, 0, -1, -1));
        // pod-c ran nothing but is part of the fleet: it shows in the load samples
        List<LoadSample> load = List.of(new LoadSample(0, "pod-a", 1, 0, 0.1), new LoadSample(0, "pod-b", 0, 0, 0),
                new LoadSample(0, "pod-c", 0, 0, 0));
        PodDiagnostics d = PodDiagnostics.of(new PolicyRun("p", "w", records, load, List.of(), 1));

        assertThat(d.pods()).isEqualTo(3);
        // pod-a 10,000 + 500 + 100 + 100, pod-b 1,000, pod-c 0
        assertThat(d.uncachedMax()).isEqualTo(10_700);
        assertThat(d.uncachedMean()).isCloseTo(11_700 / 3.0, within(1e-9));
        assertThat(d.behindLongPrefill()).isCloseTo(1 / 5.0, within(1e-12));
        // queues 0, 1.0, 0.2, 0.1, 0.4 s: p50 (3rd of 5) 0.2, p99 1.0, mean 0.34
        assertThat(d.queueP50()).isCloseTo(0.2, within(1e-12));
        assertThat(d.queueP99()).isCloseTo(1.0, within(1e-12));
        assertThat(d.queueMean()).isCloseTo(0.34, within(1e-12));
        // own prefills (TTFT − queue) 2.0, 0.8, 0.3, 0.3, 0.6 s
        assertThat(d.prefillP50()).isCloseTo(0.6, within(1e-12));
        assertThat(d.prefillP99()).isCloseTo(2.0, within(1e-12));
        assertThat(d.prefillMean()).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void onlyTheTimeInTheWaitingQueueCountsNotTheFrontEndOverhead() {
        // a long prefill over [0, 2000) ms; the other request arrives at 1500, spends 550 ms in the front end and
        // joins the waiting queue at 2050, admitted at 2100: it never waited behind the prefill
        RequestRecord overhead = new RequestRecord("late", 0, 1500 * MS, "pod-a", 200, 900 * MS, 950 * MS, 100, 0, 5,
                600 * MS, 50 * MS);
        PodDiagnostics d = PodDiagnostics.of(new PolicyRun("p", "w", List.of(
                served("long", "pod-a", 0, 0, 2000, 10_000, 0), overhead), List.of(), List.of(), 1));
        assertThat(d.behindLongPrefill()).isZero();
        // queues 0 and 0.05 s; the late one's own prefill is TTFT − admission = 0.3 s
        assertThat(d.queueP99()).isCloseTo(0.05, within(1e-12));
        assertThat(d.prefillP50()).isCloseTo(0.3, within(1e-12));
        // had it joined the queue 100 ms earlier (front end 450 ms), it would have
        RequestRecord earlier = new RequestRecord("late", 0, 1500 * MS, "pod-a", 200, 900 * MS, 950 * MS, 100, 0, 5,
                600 * MS, 150 * MS);
        assertThat(PodDiagnostics.of(new PolicyRun("p", "w", List.of(served("long", "pod-a", 0, 0, 2000, 10_000, 0),
                earlier), List.of(), List.of(), 1)).behindLongPrefill()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void aShortPrefillDelaysNoOneByThisMeasure() {
        // the same shape, the running prefill one token under the threshold
        int shortOne = PodDiagnostics.LONG_PREFILL_TOKENS - 1;
        PodDiagnostics d = PodDiagnostics.of(new PolicyRun("p", "w", List.of(
                served("first", "pod-a", 0, 0, 2000, shortOne + 1, 1),
                served("second", "pod-a", 500, 1000, 1800, 100, 0)), List.of(), List.of(), 1));
        assertThat(d.behindLongPrefill()).isZero();
        PodDiagnostics atThreshold = PodDiagnostics.of(new PolicyRun("p", "w", List.of(
                served("first", "pod-a", 0, 0, 2000, shortOne + 1, 0),
                served("second", "pod-a", 500, 1000, 1800, 100, 0)), List.of(), List.of(), 1));
        assertThat(atThreshold.behindLongPrefill()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void aLiveRunHasWorkPerPodButNoQueueTimes() {
        PodDiagnostics d = PodDiagnostics.of(new PolicyRun("live", "w", List.of(
                new RequestRecord("a", 0, 0, "pod-a", 200, 10, 20, 100, 40, 5),
                new RequestRecord("b", 0, 0, "pod-b", 200, 10, 20, 100, 80, 5)), List.of(), List.of(), 1));
        assertThat(d.uncachedMax()).isEqualTo(60);
        assertThat(d.uncachedMean()).isEqualTo(40);
        assertThat(d.behindLongPrefill()).isNaN();
        assertThat(d.queueP50()).isNaN();
        assertThat(d.prefillMean()).isNaN();
        // a pod that never reports cached tokens leaves the work unknown, not zero
        PodDiagnostics unknown = PodDiagnostics.of(new PolicyRun("live", "w", List.of(
                new RequestRecord("a", 0, 0, "pod-a", 200, 10, 20, 100, -1, 5)), List.of(), List.of(), 1));
        assertThat(unknown.uncachedMax()).isNaN();
        assertThat(unknown.uncachedMean()).isNaN();
    }
}
