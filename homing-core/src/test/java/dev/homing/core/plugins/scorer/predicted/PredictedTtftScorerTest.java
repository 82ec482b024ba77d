package dev.homing.core.plugins.scorer.predicted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.PrefillWork;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PredictedTtftScorerTest {

    private final EndpointPool pool = Pools.of(3);
    private final List<EndpointState> all = Pools.states(pool);
    private final FakeTicker ticker = new FakeTicker();

    /** A prompt of {@code tokens} (blocks of 16) of which pod i holds {@code matched[i]} blocks. */
    private Cycle cycle(int tokens, int... matched) {
        Cycle c = new Cycle(Requests.tokens(tokens), pool.snapshot(), ticker.nanos());
        c.put(PrefixMatch.KEY, new PrefixMatch(matched.length > 0 ? matched : new int[3], tokens / 16, 16));
        return c;
    }

    private static SchedulingResult to(EndpointState target) {
        ProfileResult r = new ProfileResult("default", List.of(), List.of(target), List.of(), new double[1],
                List.of(target));
        return new SchedulingResult(Map.of("default", r), "default");
    }

    /** The law the pods answer by: 0.14 s + 71.3 µs a token + the attention, as Llama-70B TP4 is priced. */
    private static double law(long uncached, long cached) {
        return 0.14 + 0.713 * uncached / 1e4 + 0.132 * PrefillWork.of(uncached, cached) / 1e8;
    }

    /** Teaches the scorer the law: 60 cold prompts, each to the idle pod-1, answered when the law says. */
    private void teach(PredictedTtftScorer s) {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 60; i++) {
            int tokens = 16 * r.nextInt(10, 2_500);
            Cycle c = cycle(tokens);
            s.score(c, all);
            SchedulingResult result = to(all.get(1));
            s.preRequest(c, result);
            ticker.advance(Duration.ofNanos(Math.round(law(tokens, 0) * 1e9)));
            s.onFirstToken(c, result);
            ticker.advance(Duration.ofSeconds(1));
            s.onComplete(c, result, new Outcome(Outcome.Cause.NATURAL, 200, tokens, 10, 0));
        }
    }

    @Test
    void untilItHasLearntItRanksByThePrefillTokensAheadAndOwn() {
        PredictedTtftScorer s = new PredictedTtftScorer(null, ticker, 0);
        pool.load("pod-0").acquire(1000, 0, 1200); // 1,000 tokens this router sent, not yet prefilled
        // a 320-token prompt; pod-0 holds it all, pod-2 half: costs 1000 + 0, 320, 160
        double[] scores = s.score(cycle(320, 20, 0, 10), all);
        assertThat(scores[0]).isCloseTo(160 / 1000.0, within(1e-12));
        assertThat(scores[1]).isCloseTo(160 / 320.0, within(1e-12));
        assertThat(scores[2]).isEqualTo(1.0);
    }

    @Test
    void onceLearntItPredictsEachPodsTimeToFirstTokenByHandAndItsErrorIsSmall() {
        PredictedTtftScorer s = new PredictedTtftScorer(null, ticker, 0);
        teach(s);
        assertThat(s.predictions().observations()).isGreaterThan(30);
        assertThat(s.predictions().medianError()).isLessThan(0.01);
        // pod-0 gets a 30,000-token cold prompt, still prefilling when the next request comes 0.5 s later
        Cycle busy = cycle(30_000);
        s.score(busy, all);
        s.preRequest(busy, to(all.get(0)));
        ticker.advance(Duration.ofMillis(500));
        // the next: 20,000 tokens; pod-0 holds none of it, pod-1 none, pod-2 16,000 (1,000 blocks)
        s.score(cycle(20_000, 0, 0, 1_000), all);
        double backlog = law(30_000, 0) - 0.14 - 0.5;
        double pod0 = law(20_000, 0) + backlog;
        double pod1 = law(20_000, 0);
        double pod2 = law(4_000, 16_000);
        double[] scores = s.score(cycle(20_000, 0, 0, 1_000), all);
        assertThat(scores[2]).isEqualTo(1.0);
        assertThat(scores[1]).isCloseTo(pod2 / pod1, within(0.01));
        assertThat(scores[0]).isCloseTo(pod2 / pod0, within(0.01));
        assertThat(s.report()).containsKeys("predictions", "medianRelativeError", "interceptSeconds")
                .hasEntrySatisfying("secondsPer10kTokens", v -> assertThat(v).isCloseTo(0.713, within(0.01)));
    }

    @Test
    void theFitLearnsFromWhatTheUsageSaysWasCachedNotFromTheEstimate() {
        PredictedTtftScorer s = new PredictedTtftScorer(null, ticker, 0);
        SplittableRandom r = new SplittableRandom(9);
        for (int i = 0; i < 60; i++) {
            int tokens = 16 * r.nextInt(100, 2_500);
            long cached = 16L * r.nextInt(0, tokens / 16);
            Cycle c = cycle(tokens); // the router thinks nothing is cached: the pod had `cached` of it
            s.score(c, all);
            SchedulingResult result = to(all.get(1));
            s.preRequest(c, result);
            ticker.advance(Duration.ofNanos(Math.round(law(tokens - cached, cached) * 1e9)));
            s.onFirstToken(c, result);
            s.onComplete(c, result, new Outcome(Outcome.Cause.NATURAL, 200, tokens, 10, cached));
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(s.report().get("secondsPer10kTokens")).isCloseTo(0.713, within(0.01));
        assertThat(s.report().get("interceptSeconds")).isCloseTo(0.14, within(0.01));
    }

    @Test
    void itAbstainsWhileEveryPodWaitsForKvMemoryOrItsPredictionsAreOff() {
        PredictedTtftScorer s = new PredictedTtftScorer(null, ticker, 0);
        teach(s);
        Cycle big = cycle(50_000); // pod-0 gets a long cold prompt: a backlog it would otherwise steer away from
        s.score(big, all);
        s.preRequest(big, to(all.get(0)));
        assertThat(s.score(cycle(1_600), all)[0]).isLessThan(0.5);
        for (String pod : List.of("pod-0", "pod-1", "pod-2")) {
            Pools.scrape(pool, pod, Pools.metrics(3, 40, 0.95));
        }
        assertThat(s.score(cycle(1_600), Pools.states(pool))).as("memory-bound: it cannot price the wait")
                .containsOnly(1.0);
        Pools.scrape(pool, "pod-2", Pools.metrics(0, 10, 0.5)); // one pod has room again
        assertThat(s.score(cycle(1_600), Pools.states(pool))[0]).isLessThan(0.5);

        // the pods stop following any law it can fit: each answer three times slower or four times faster
        for (int i = 0; i < PredictedTtftScorer.RECENT; i++) {
            double factor = i % 2 == 0 ? 3 : 0.25;
            Cycle c = cycle(1_600);
            s.score(c, all);
            SchedulingResult result = to(all.get(1));
            s.preRequest(c, result);
            ticker.advance(Duration.ofNanos(Math.round(factor * law(1_600, 0) * 1e9)));
            s.onFirstToken(c, result);
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(s.score(cycle(1_600), all)).as("off by more than half: it abstains").containsOnly(1.0);
    }

    @Test
    void aRequestThatFailsBeforeItsFirstTokenLeavesNoBacklog() {
        PredictedTtftScorer s = new PredictedTtftScorer(null, ticker, 0);
        teach(s);
        Cycle doomed = cycle(60_000);
        s.score(doomed, all);
        s.preRequest(doomed, to(all.get(0)));
        double[] before = s.score(cycle(1_600), all);
        assertThat(before[0]).isLessThan(0.5);
        s.onComplete(doomed, to(all.get(0)), Outcome.of(Outcome.Cause.ERROR, 503));
        double[] after = s.score(cycle(1_600), all);
        assertThat(after[0]).as("as idle as pod-1").isCloseTo(after[1], within(1e-3));
    }

    @Test
    void whenEveryPodIsBackloggedAMissIsChargedForTheWaitsItAddsAndTheRequestStaysHome() {
        // every pod has a cold 40,000-token prompt queued (a backlog of ~3.3 s); the new 24,000-token prompt is
        // wholly cached on pod-0, whose queue is 2 s longer (another 24,000 tokens behind it)
        for (double k : new double[] {0, 3}) {
            FakeTicker t = new FakeTicker();
            EndpointPool p = Pools.of(2);
            List<EndpointState> states = Pools.states(p);
            PredictedTtftScorer s = new PredictedTtftScorer(null, t, k);
            SplittableRandom r = new SplittableRandom(3);
            for (int i = 0; i < 60; i++) {
                int tokens = 16 * r.nextInt(10, 2_500);
                Cycle c = new Cycle(Requests.tokens(tokens), p.snapshot(), t.nanos());
                s.score(c, states);
                s.preRequest(c, to(states.get(i % 2)));
                t.advance(Duration.ofNanos(Math.round(law(tokens, 0) * 1e9)));
                s.onFirstToken(c, to(states.get(i % 2)));
                s.onComplete(c, to(states.get(i % 2)), Outcome.of(Outcome.Cause.NATURAL, 200));
            }
            for (int pod = 0; pod < 2; pod++) {
                Cycle c = new Cycle(Requests.tokens(40_000), p.snapshot(), t.nanos());
                s.score(c, states);
                s.preRequest(c, to(states.get(pod)));
            }
            Cycle extra = new Cycle(Requests.tokens(24_000), p.snapshot(), t.nanos());
            s.score(extra, states);
            s.preRequest(extra, to(states.get(0)));
            Cycle next = new Cycle(Requests.tokens(24_000), p.snapshot(), t.nanos());
            next.put(PrefixMatch.KEY, new PrefixMatch(new int[] {1_500, 0}, 1_500, 16));
            double[] scores = s.score(next, states);
            if (k == 0) {
                assertThat(scores[1]).as("fastest first token: the miss on the shorter queue").isEqualTo(1.0);
                assertThat(scores[0]).isLessThan(1.0);
            } else {
                assertThat(scores[0]).as("charged for the waits it adds: the hit").isEqualTo(1.0);
                assertThat(scores[1]).isLessThan(1.0);
            }
        }
    }
}
