package dev.homing.core.plugins.admitter;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.PrefillWork;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.scorer.QueueScorer;
import dev.homing.core.plugins.scorer.predicted.PredictedTtftScorer;
import dev.homing.protocol.openai.ApiKind;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LatencySloAdmitterTest {

    static final int PROMPT = 8_000; // tokens, known exactly

    private final FakeTicker ticker = new FakeTicker();
    private final EndpointPool pool = Pools.of(3);

    /** The law the pods answer by: 0.14 s + 71.3 µs a token + the attention (as PredictedTtftScorerTest's). */
    static double law(long uncached) {
        return 0.14 + 0.713 * uncached / 1e4 + 0.132 * PrefillWork.of(uncached, 0) / 1e8;
    }

    static SchedulingResult to(EndpointState target) {
        ProfileResult r = new ProfileResult("default", List.of(), List.of(target), List.of(), new double[1],
                List.of(target));
        return new SchedulingResult(Map.of("default", r), "default");
    }

    /** Teaches {@code s} the law: 60 cold prompts, each to idle, never-scraped pod-1, answered when the law says. */
    static void teach(PredictedTtftScorer s, EndpointPool pool, FakeTicker ticker) {
        SplittableRandom r = new SplittableRandom(3);
        List<EndpointState> all = Pools.states(pool);
        for (int i = 0; i < 60; i++) {
            int tokens = 16 * r.nextInt(10, 2_500);
            Cycle c = new Cycle(Requests.tokens(tokens), pool.snapshot(), ticker.nanos());
            c.put(PrefixMatch.KEY, new PrefixMatch(new int[all.size()], tokens / 16, 16));
            s.score(c, all);
            SchedulingResult result = to(all.get(1));
            s.preRequest(c, result);
            ticker.advance(Duration.ofNanos(Math.round(law(tokens) * 1e9)));
            s.onFirstToken(c, result);
            ticker.advance(Duration.ofSeconds(1));
            s.onComplete(c, result, new Outcome(Outcome.Cause.NATURAL, 200, tokens, 10, 0));
        }
    }

    /** Every pod busy (4 running) and warm (KV 50 %), nothing waiting: the law alone says when they answer. */
    private void busy() {
        for (EndpointState e : Pools.states(pool)) {
            Pools.scrape(pool, e.name(), Pools.metrics(0, 4, 0.5));
        }
    }

    static InferenceRequest request(int tokens, int priority, Map<String, String> headers) {
        StringBuilder ids = new StringBuilder();
        for (int i = 0; i < tokens; i++) {
            ids.append(i == 0 ? "" : ",").append(100 + i);
        }
        return Requests.fromBody(ApiKind.COMPLETIONS, "{\"model\":\"" + Requests.MODEL + "\",\"prompt\":[" + ids
                + "],\"max_tokens\":20}", headers).withPriority(priority);
    }

    private Cycle cycle(int priority, Map<String, String> headers) {
        return new Cycle(request(PROMPT, priority, headers), pool.snapshot(), ticker.nanos());
    }

    private PredictedTtftScorer taught() {
        PredictedTtftScorer s = new PredictedTtftScorer("ttft", ticker, 0);
        teach(s, pool, ticker);
        return s;
    }

    /** The least predicted TTFT over the pool, in ms, for the test's prompt. */
    private double bestMs(PredictedTtftScorer s) {
        double[] p = s.predictTtftSeconds(cycle(-1, Map.of()), Pools.states(pool));
        assertThat(p).isNotNull();
        double best = Double.POSITIVE_INFINITY;
        for (double v : p) {
            best = Math.min(best, v * 1000);
        }
        return best;
    }

    private static boolean admits(LatencySloAdmitter a, Cycle c, List<EndpointState> candidates) {
        try {
            a.admit(c, candidates);
            return true;
        } catch (SchedulingException e) {
            assertThat(e.status()).isEqualTo(500); // llm-d's director: Internal, whatever the admitter said
            assertThat(e.droppedReason()).isNull();
            assertThat(e.getMessage()).startsWith("request cannot be admitted: no valid endpoint available to "
                    + "serve the request (slo: sheddable request");
            return false;
        }
    }

    @Test
    void thePredictionsAreTheScorersOwnAndFollowTheLawItLearnt() {
        PredictedTtftScorer s = taught();
        busy();
        // a whole 8,000-token prompt uncached, on pods decoding 4 requests the fit never saw: close to the law
        assertThat(bestMs(s)).isCloseTo(law(PROMPT) * 1000, within(law(PROMPT) * 1000 * 0.15));
    }

    @ParameterizedTest(name = "priority {0}, {1}: {2} x best prediction -> admitted {3}")
    @CsvSource({
        "-1, x-slo-ttft-ms,       1.05, true",
        "-1, x-slo-ttft-ms,       0.95, false",
        "-3, x-slo-ttft-ms,       0.50, false",
        "-1, x-llm-d-slo-ttft-ms, 0.95, false",
        "-1, x-llm-d-slo-ttft-ms, 1.05, true",
        " 0, x-slo-ttft-ms,       0.10, true",
        " 2, x-slo-ttft-ms,       0.10, true",
        "-1, x-other-ttft-ms,     0.10, true",
    })
    void aSheddableRequestWithASloIsRefusedOnlyWhenNoCandidateIsPredictedToMeetIt(int priority, String header,
                                                                                 double factor, boolean admitted) {
        PredictedTtftScorer s = taught();
        busy();
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        String slo = Double.toString(bestMs(s) * factor);
        assertThat(admits(a, cycle(priority, Map.of(header, slo)), Pools.states(pool))).isEqualTo(admitted);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            x-slo-ttft-ms: 0                                 | true
            x-slo-ttft-ms: -5                                | true
            x-slo-ttft-ms: fast                              | true
            x-slo-ttft-ms:                                   | true
            x-slo-tpot-ms: 50                                | false
            x-slo-ttft-ms: fast, x-slo-tpot-ms: 50           | false
            x-slo-tpot-ms: 0                                 | true
            x-slo-ttft-ms: 1e9, x-slo-tpot-ms: 0.001         | true
            x-llm-d-slo-ttft-ms: 1, x-slo-ttft-ms: 1e9       | false
            """)
    void headersWithoutAUsableSloAdmitAndATpotSloAloneMeetsATtftSloOfZero(String headers, boolean admitted) {
        PredictedTtftScorer s = taught();
        busy();
        Map<String, String> h = new HashMap<>();
        for (String kv : headers.split(",")) {
            String[] p = kv.split(":", 2);
            h.put(p[0].trim(), p[1].trim());
        }
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        assertThat(admits(a, cycle(-1, h), Pools.states(pool))).isEqualTo(admitted);
    }

    @ParameterizedTest(name = "pod-2 {0}")
    @CsvSource({"idle, 0, 0.5", "cold, 4, 0.019", "cold and idle, 0, 0.0", "warm by a hair, 4, 0.02"})
    void anIdleOrColdCandidateAdmitsWhateverThePredictionsSay(String what, int running, double kv) {
        PredictedTtftScorer s = taught();
        busy();
        Pools.scrape(pool, "pod-2", Pools.metrics(0, running, kv));
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        boolean expected = running == 0 || kv < 0.02;
        assertThat(admits(a, cycle(-1, Map.of("x-slo-ttft-ms", "1")), Pools.states(pool))).isEqualTo(expected);
    }

    @Test
    void aNeverScrapedCandidateReadsAsIdleAndCold() {
        PredictedTtftScorer s = taught();
        busy();
        EndpointPool bigger = Pools.of(4); // pod-3 never scraped
        for (int i = 0; i < 3; i++) {
            Pools.scrape(bigger, "pod-" + i, Pools.metrics(0, 4, 0.5));
        }
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        Cycle c = new Cycle(request(PROMPT, -1, Map.of("x-slo-ttft-ms", "1")), bigger.snapshot(), ticker.nanos());
        assertThat(admits(a, c, Pools.states(bigger))).isTrue();
        assertThat(admits(a, c, Pools.states(bigger).subList(0, 3))).isFalse();
    }

    /** Seeded: pod-0 has a long prefill queued, so its prediction is the worst; only the best one decides. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void theRequestPassesExactlyWhenTheBestCandidatesPredictionIsBelowItsSlo(long seed) {
        PredictedTtftScorer s = taught();
        busy();
        List<EndpointState> all = Pools.states(pool);
        Cycle big = new Cycle(Requests.tokens(30_000), pool.snapshot(), ticker.nanos());
        s.score(big, all);
        s.preRequest(big, to(all.get(0))); // 30,000 tokens waiting to prefill on pod-0
        double[] p = s.predictTtftSeconds(cycle(-1, Map.of()), Pools.states(pool));
        assertThat(p[0]).isGreaterThan(2 * p[1]);
        double best = Math.min(p[0], Math.min(p[1], p[2])) * 1000;
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            double slo = r.nextDouble(0.5, 2.0) * best;
            boolean admitted = admits(a, cycle(-1 - r.nextInt(3), Map.of("x-slo-ttft-ms", Double.toString(slo))),
                    Pools.states(pool));
            assertThat(admitted).as("SLO %.1f ms, best %.1f ms", slo, best).isEqualTo(best < slo);
        }
    }

    @Test
    void withoutPredictionsItFailsOpenAsLlmDDoes() {
        busy();
        Cycle tight = cycle(-1, Map.of("x-slo-ttft-ms", "1"));
        // no predictor in the config
        assertThat(admits(new LatencySloAdmitter("slo", (PredictedTtftScorer) null), tight, Pools.states(pool)))
                .isTrue();
        // a predictor that has not learnt yet
        PredictedTtftScorer fresh = new PredictedTtftScorer("ttft", ticker, 0);
        assertThat(fresh.predictTtftSeconds(tight, Pools.states(pool))).isNull();
        assertThat(admits(new LatencySloAdmitter("slo", fresh), tight, Pools.states(pool))).isTrue();
        // no candidates
        PredictedTtftScorer s = taught();
        assertThat(admits(new LatencySloAdmitter("slo", s), tight, List.of())).isTrue();
        // and with a trained one, the same request is refused
        assertThat(admits(new LatencySloAdmitter("slo", s), tight, Pools.states(pool))).isFalse();
    }

    @Test
    void aDryRunIsJudgedAlikeAndChangesNothing() {
        PredictedTtftScorer s = taught();
        busy();
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        double before = bestMs(s);
        Cycle dry = new Cycle(request(PROMPT, -1, Map.of("x-slo-ttft-ms", "1")), pool.snapshot(), ticker.nanos(),
                true);
        assertThat(admits(a, dry, Pools.states(pool))).isFalse();
        assertThat(bestMs(s)).isEqualTo(before);
    }

    @Test
    void itReadsNoParameterButTheNameOfItsPredictorAndSaysHowItDiffers() {
        var p = params("{}");
        LatencySloAdmitter.create("slo", p, context());
        assertThat(p.notices()).singleElement().satisfies(n -> assertThat(n.message())
                .contains("predicted-ttft-scorer").contains("no TPOT").contains("admits everything"));
        var unknown = params("{'latencyPredictionInfoProducerName':'ttft','ttftWeight':1}");
        LatencySloAdmitter.create("slo", unknown, context());
        assertThat(unknown.unknownKeys()).containsExactly("ttftWeight");
    }

    @Test
    void referencesAreResolvedOnceEveryPluginExists() {
        PredictedTtftScorer one = new PredictedTtftScorer("one", ticker, 0);
        PredictedTtftScorer two = new PredictedTtftScorer("two", ticker, 0);
        QueueScorer queue = new QueueScorer("queue");

        LatencySloAdmitter sole = new LatencySloAdmitter("slo", "");
        sole.resolveReferences(Map.of("one", one, "queue", queue));
        assertThat(sole.predictor()).isSameAs(one);

        LatencySloAdmitter none = new LatencySloAdmitter("slo", "");
        none.resolveReferences(Map.of("queue", queue));
        assertThat(none.predictor()).isNull();

        LatencySloAdmitter named = new LatencySloAdmitter("slo", "two");
        named.resolveReferences(Map.of("one", one, "two", two));
        assertThat(named.predictor()).isSameAs(two);

        assertThatThrownBy(() -> new LatencySloAdmitter("slo", "").resolveReferences(Map.of("one", one, "two", two)))
                .isInstanceOf(PluginConfigException.class).hasMessage("the config has 2 predicted-ttft-scorers; "
                        + "parameter 'latencyPredictionInfoProducerName' must say which one this admitter reads; "
                        + "predicted-ttft-scorers: one, two");
        assertThatThrownBy(() -> new LatencySloAdmitter("slo", "queue").resolveReferences(Map.of("queue", queue)))
                .isInstanceOf(PluginConfigException.class).hasMessage("parameter 'latencyPredictionInfoProducerName': "
                        + "'queue' is a queue-scorer; it must name a predicted-ttft-scorer, whose predictions this "
                        + "admitter reads; predicted-ttft-scorers: none");
        assertThatThrownBy(() -> new LatencySloAdmitter("slo", "gone").resolveReferences(Map.of("one", one)))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'gone' is not a plugin of this "
                        + "config").hasMessageEndingWith("predicted-ttft-scorers: one");
    }

    @Test
    void priorityZeroOrMoreIsNeverJudged() {
        PredictedTtftScorer s = taught();
        busy();
        LatencySloAdmitter a = new LatencySloAdmitter("slo", s);
        for (int priority : new int[] {0, 1, 100}) {
            assertThatCode(() -> a.admit(cycle(priority, Map.of("x-slo-ttft-ms", "1")), Pools.states(pool)))
                    .doesNotThrowAnyException();
        }
    }
}
