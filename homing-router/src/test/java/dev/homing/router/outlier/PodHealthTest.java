package dev.homing.router.outlier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PodHealthTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(-7 * SECOND);
    private final EndpointPool pool = new EndpointPool();

    private PodHealth health(HealthChecks.Probe probe) {
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 1), new Endpoint("b", "127.0.0.1", 2)));
        return new PodHealth(pool, now::get, Duration.ofSeconds(2), probe, Duration.ofSeconds(1));
    }

    private void scraped(String pod) {
        pool.updateMetrics(pod, new EndpointMetrics(0, 0, 0.1, 16, 1000, Set.of(), Set.of(), 0, now.get()),
                pool.load(pod).scrapeStarted());
    }

    @Test
    void metricsOlderThanTheLimitTakeAnEndpointOutWhileAnotherIsFresh() {
        PodHealth h = health(null);
        scraped("a");
        scraped("b");
        h.refreshStale();
        assertThat(h.routable("a")).isTrue();
        assertThat(h.routable("b")).isTrue();
        now.addAndGet(SECOND);
        scraped("a");
        now.addAndGet(SECOND + 1); // b's metrics are now 2 s + 1 ns old, a's 1 s
        h.refreshStale();
        assertThat(h.routable("a")).isTrue();
        assertThat(h.routable("b")).isFalse();
        assertThat(h.stale("b")).isTrue();
        assertThat(h.failing("b")).as("stale is not failing").isFalse();
        scraped("b");
        h.refreshStale();
        assertThat(h.routable("b")).isTrue();
    }

    @Test
    void whenEveryEndpointIsStaleStalenessTakesNoOneOut() {
        PodHealth h = health(null);
        h.refreshStale(); // never scraped: both just seen
        now.addAndGet(3 * SECOND);
        h.refreshStale(); // never scraped in 3 s: both stale, so neither is taken out
        assertThat(h.routable("a")).isTrue();
        assertThat(h.routable("b")).isTrue();
        scraped("a");
        h.refreshStale();
        assertThat(h.routable("b")).as("a is fresh now: b, never scraped in 3 s, is out").isFalse();
    }

    @Test
    void aPodJustDiscoveredIsNoStalerThanItsTimeInThePool() {
        PodHealth h = health(null);
        scraped("a");
        h.refreshStale();
        assertThat(h.routable("b")).as("b was just seen: not scraped yet, not stale either").isTrue();
        now.addAndGet(SECOND);
        scraped("a");
        h.refreshStale();
        assertThat(h.routable("b")).isTrue();
        now.addAndGet(SECOND + 1);
        scraped("a");
        h.refreshStale();
        assertThat(h.routable("b")).as("2 s in the pool without a scrape").isFalse();
    }

    @Test
    void anEjectedEndpointWithActiveChecksComesBackOnlyOnceAProbeAnswers() {
        boolean[] up = {false};
        // wired as PodHealth wires them, with probes run inline so that each verdict is in before the call returns
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 1)));
        HealthChecks checks = new HealthChecks(() -> pool.snapshot().endpoints(),
                e -> up[0] ? HealthChecks.Verdict.HEALTHY : HealthChecks.Verdict.UNHEALTHY, Runnable::run);
        Ejections ejections = new Ejections(now::get, pod -> checks.verify(pod, pool.snapshot().get(pod).endpoint()));
        for (int i = 0; i < Ejections.CONSECUTIVE; i++) {
            ejections.failed("a");
        }
        assertThat(checks.healthy("a")).as("the probe at the ejection failed").isFalse();
        now.addAndGet(Ejections.BASE.toNanos());
        assertThat(ejections.ejected("a")).isFalse();
        assertThat(checks.healthy("a")).as("its time is over, but no probe has answered").isFalse();
        up[0] = true;
        checks.round();
        assertThat(checks.healthy("a")).isTrue();
    }

    @Test
    void probesFailingInARowTakeAnEndpointOutAndOneAnswerBringsItBack() {
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 1)));
        boolean[] up = {true};
        HealthChecks checks = new HealthChecks(() -> pool.snapshot().endpoints(), e -> {
            if (!up[0]) {
                throw new java.net.SocketTimeoutException("no answer"); // a probe that throws fails
            }
            return HealthChecks.Verdict.HEALTHY;
        }, Runnable::run);
        checks.round();
        assertThat(checks.healthy("a")).isTrue();
        up[0] = false;
        checks.round();
        assertThat(checks.healthy("a")).as("one lost probe is no verdict").isTrue();
        checks.round();
        assertThat(checks.healthy("a")).isFalse();
        up[0] = true;
        checks.round();
        assertThat(checks.healthy("a")).isTrue();
        assertThat(checks.counts("a")).containsExactly(4, 2);
        pool.setEndpoints(List.of());
        checks.round();
        assertThat(checks.counts("a")).as("pruned with the pool").containsExactly(0, 0);
    }

    @Test
    void anEndpointNothingListensOnIsOutAfterOneProbeAndASuspectIsProbedAtOnce() {
        pool.setEndpoints(List.of(new Endpoint("a", "127.0.0.1", 1)));
        int[] probes = {0};
        HealthChecks checks = new HealthChecks(() -> pool.snapshot().endpoints(), e -> {
            probes[0]++;
            return HealthChecks.Verdict.UNREACHABLE;
        }, Runnable::run);
        checks.suspect(pool.snapshot().get("a").endpoint());
        assertThat(probes[0]).isEqualTo(1);
        assertThat(checks.healthy("a")).as("refused: no second probe waited for").isFalse();
    }
}
