package dev.homing.core.plugins.prefix.precise;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.precise.InMemoryPreciseIndex;
import dev.homing.core.precise.PreciseIndexContract;
import dev.homing.core.precise.PreciseIndexFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PrecisePrefixCacheProducerTest {

    private final EndpointPool pool = Pools.of(3);
    private final FakeTicker ticker = new FakeTicker();
    private final AtomicReference<int[]> nextTokens = new AtomicReference<>();
    private final AtomicInteger asked = new AtomicInteger();
    private final TokenSource source = (InferenceRequest r, String url, Duration t) -> {
        asked.incrementAndGet();
        return Optional.ofNullable(nextTokens.get());
    };

    private PrecisePrefixCacheProducer producer(String params) throws Exception {
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(1), pool).withTokens(source);
        return PrecisePrefixCacheProducer.create("precise", Parameters.of(new ObjectMapper().readTree(params)), ctx);
    }

    private Cycle cycle(String prompt) {
        return new Cycle(Requests.completion(prompt), pool.snapshot(), ticker.nanos());
    }

    @Test
    void matchesWhatThePodsReportForTheRequestsTokens() throws Exception {
        PrecisePrefixCacheProducer p = producer("{\"tokenProcessorConfig\":{\"blockSize\":4}}");
        int[] tokens = PreciseIndexContract.tokens(13, 9);
        p.index().apply("pod-2", List.of(PreciseIndexContract.stored(tokens, 0, 2, 77)));
        nextTokens.set(tokens);
        Cycle c = cycle("anything");
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        PrefixMatch m = c.get(PrefixMatch.KEY);
        assertThat(m.totalBlocks()).isEqualTo(3);
        assertThat(m.matchedBlocks()).containsExactly(0, 0, 2);
        assertThat(c.get(PreciseScores.KEY).weightedBlocks()).containsExactly(0.0, 0.0, 2.0);
        assertThat(p.fallbacks()).isZero();
    }

    @Test
    void theIndexComesFromTheHostsFactoryWithTheConfiguredSettings() throws Exception {
        List<String> made = new java.util.ArrayList<>();
        PreciseIndexFactory factory = (max, bs, seed, tiers) -> {
            made.add(max + "/" + bs + "/" + seed + "/" + new java.util.TreeMap<>(tiers));
            return new InMemoryPreciseIndex(max, bs, seed, tiers);
        };
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(1), pool).withTokens(source)
                .withPreciseIndexes(factory);
        PrecisePrefixCacheProducer p = PrecisePrefixCacheProducer.create("precise", Parameters.of(new ObjectMapper()
                .readTree("{\"maxIndexedBlocks\":500,\"indexerConfig\":{\"tokenProcessorConfig\":{\"blockSizeTokens\":64,"
                        + "\"hashSeed\":\"42\"},\"kvCacheBackendConfigs\":[{\"name\":\"CPU\",\"weight\":0.5}]}}")), ctx);
        assertThat(made).containsExactly("500/64/" + "42".hashCode() + "/{cpu=0.5, gpu=1.0}");
        assertThat(p.index().blockSize()).isEqualTo(64);
        assertThat(producer("{}").index()).isInstanceOf(InMemoryPreciseIndex.class);
    }

    @Test
    void theLookupStartsBeforeTheDecisionAndFinishesInIt() throws Exception {
        List<String> calls = new java.util.ArrayList<>();
        PreciseIndexFactory factory = (max, bs, seed, tiers) -> new PreciseIndexRecorder(
                new InMemoryPreciseIndex(max, bs, seed, tiers), calls);
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(1), pool).withTokens(source)
                .withPreciseIndexes(factory);
        PrecisePrefixCacheProducer p = PrecisePrefixCacheProducer.create("precise",
                Parameters.of(new ObjectMapper().readTree("{\"tokenProcessorConfig\":{\"blockSize\":4}}")), ctx);
        nextTokens.set(PreciseIndexContract.tokens(8, 0));
        Cycle c = cycle("x");
        p.prepare(c);
        assertThat(calls).containsExactly("lookup");
        p.produce(c, Pools.states(pool));
        assertThat(calls).containsExactly("lookup", "match");
    }

    @Test
    void speculativeIndexingCoversTheGapBeforeEvents() throws Exception {
        PrecisePrefixCacheProducer p = producer("{\"tokenProcessorConfig\":{\"blockSize\":4},\"speculativeIndexing\":true,"
                + "\"speculativeTTL\":\"2s\"}");
        nextTokens.set(PreciseIndexContract.tokens(8, 0));
        Cycle first = cycle("x");
        p.prepare(first);
        p.produce(first, Pools.states(pool));
        ProfileResult r = new ProfileResult("default", List.of(), Pools.states(pool), List.of(), new double[3],
                List.of(pool.snapshot().get("pod-1")));
        p.preRequest(first, new SchedulingResult(Map.of("default", r), "default"));

        Cycle second = cycle("x");
        p.prepare(second);
        p.produce(second, Pools.states(pool));
        assertThat(second.get(PrefixMatch.KEY).matchedBlocks()).containsExactly(0, 2, 0);
        ticker.advance(Duration.ofSeconds(3));
        Cycle third = cycle("x");
        p.prepare(third);
        p.produce(third, Pools.states(pool));
        assertThat(third.get(PrefixMatch.KEY).matchedBlocks()).containsExactly(0, 0, 0);
    }

    private static final String UNTIL_PREFILLED = "{\"tokenProcessorConfig\":{\"blockSize\":4},"
            + "\"speculativeIndexing\":true,\"speculativeUntilPrefilled\":true,\"speculativeTTL\":\"2s\"";

    /** Picks {@code pod} for the prompt {@code tokens}; returns the cycle, whose hooks the response then calls. */
    private Cycle pick(PrecisePrefixCacheProducer p, int[] tokens, String pod) {
        nextTokens.set(tokens);
        Cycle c = cycle("x");
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        ProfileResult r = new ProfileResult("default", List.of(), Pools.states(pool), List.of(), new double[3],
                List.of(pool.snapshot().get(pod)));
        p.preRequest(c, new SchedulingResult(Map.of("default", r), "default"));
        return c;
    }

    private int[] matched(PrecisePrefixCacheProducer p, int[] tokens) {
        nextTokens.set(tokens);
        Cycle c = cycle("x");
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        return c.get(PrefixMatch.KEY).matchedBlocks();
    }

    @Test
    void aPicksBlocksBelongToItsPodThroughAMinuteInAQueueUntilItsFirstTokenThenTheTtl() throws Exception {
        PrecisePrefixCacheProducer p = producer(UNTIL_PREFILLED + "}");
        int[] prompt = PreciseIndexContract.tokens(12, 0);
        Cycle c = pick(p, prompt, "pod-1");
        ticker.advance(Duration.ofSeconds(60)); // queued behind long prefills: no event yet
        assertThat(matched(p, prompt)).as("still the pod's after 60 s").containsExactly(0, 3, 0);
        assertThat(p.speculativeBlocks("pod-1")).isEqualTo(3);
        p.onFirstToken(c, null); // prefilled: the pod's events will say so within the TTL
        assertThat(p.speculativeBlocks("pod-1")).isZero();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(matched(p, prompt)).containsExactly(0, 3, 0);
        ticker.advance(Duration.ofSeconds(2));
        assertThat(matched(p, prompt)).as("no event confirmed it").containsExactly(0, 0, 0);
        p.onComplete(c, null, dev.homing.core.framework.requestcontrol.Outcome.of(
                dev.homing.core.framework.requestcontrol.Outcome.Cause.NATURAL, 200));
        assertThat(p.speculativeBlocks("pod-1")).isZero();
    }

    @Test
    void aPickThatFailsBeforeItsFirstTokenDropsItsHoldAtOnceAndItsMaximumAgeEndsItAnyway() throws Exception {
        PrecisePrefixCacheProducer p = producer(UNTIL_PREFILLED + ",\"speculativeMaxAge\":\"5m\"}");
        int[] failed = PreciseIndexContract.tokens(8, 0);
        int[] forgotten = PreciseIndexContract.tokens(8, 900);
        Cycle c = pick(p, failed, "pod-2");
        pick(p, forgotten, "pod-0"); // its response never reports back
        ticker.advance(Duration.ofSeconds(30));
        p.onComplete(c, null, dev.homing.core.framework.requestcontrol.Outcome.of(
                dev.homing.core.framework.requestcontrol.Outcome.Cause.ERROR, 503));
        assertThat(matched(p, failed)).containsExactly(0, 0, 0);
        assertThat(p.speculativeBlocks("pod-2")).isZero();
        assertThat(matched(p, forgotten)).containsExactly(2, 0, 0);
        ticker.advance(Duration.ofMinutes(5));
        assertThat(matched(p, forgotten)).as("past the maximum age").containsExactly(0, 0, 0);
    }

    @Test
    void aPodHoldsAtMostItsCapOfUnsettledBlocksLeadingBlocksFirst() throws Exception {
        PrecisePrefixCacheProducer p = producer(UNTIL_PREFILLED + ",\"maxSpeculativeBlocksPerPod\":4}");
        int[] first = PreciseIndexContract.tokens(12, 0); // 3 blocks
        int[] second = PreciseIndexContract.tokens(12, 500); // 3 more: only 1 fits
        int[] third = PreciseIndexContract.tokens(12, 900);
        Cycle a = pick(p, first, "pod-1");
        pick(p, second, "pod-1");
        pick(p, third, "pod-1");
        assertThat(p.speculativeBlocks("pod-1")).isEqualTo(4);
        assertThat(matched(p, first)).containsExactly(0, 3, 0);
        assertThat(matched(p, second)).as("its leading block").containsExactly(0, 1, 0);
        assertThat(matched(p, third)).containsExactly(0, 0, 0);
        p.onFirstToken(a, null);
        assertThat(p.speculativeBlocks("pod-1")).isEqualTo(1);
        pick(p, third, "pod-1");
        assertThat(matched(p, third)).as("room again").containsExactly(0, 3, 0);
        assertThat(p.speculativeBlocks("pod-1")).isEqualTo(4);
    }

    @Test
    void llmDsSpeculationIsAFixedTtlWhateverTheResponse() throws Exception {
        PrecisePrefixCacheProducer p = producer("{\"tokenProcessorConfig\":{\"blockSize\":4},"
                + "\"speculativeIndexing\":true}");
        int[] prompt = PreciseIndexContract.tokens(8, 0);
        Cycle c = pick(p, prompt, "pod-1");
        p.onComplete(c, null, dev.homing.core.framework.requestcontrol.Outcome.of(
                dev.homing.core.framework.requestcontrol.Outcome.Cause.ERROR, 0));
        assertThat(matched(p, prompt)).as("not dropped: llm-d keeps its TTL").containsExactly(0, 2, 0);
        ticker.advance(Duration.ofMillis(2001));
        assertThat(matched(p, prompt)).containsExactly(0, 0, 0);
    }

    @Test
    void withoutTokensItFallsBackToApproximateMatchingAndCountsIt() throws Exception {
        PrecisePrefixCacheProducer p = producer("{}");
        nextTokens.set(null);
        String prompt = Requests.prose(4, 100);
        Cycle c = cycle(prompt);
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        assertThat(p.fallbacks()).isEqualTo(1);
        // a source that failed is not asked again in the same cycle (produce runs under the decision lock)
        assertThat(asked).hasValue(1);
        ProfileResult r = new ProfileResult("default", List.of(), Pools.states(pool), List.of(), new double[3],
                List.of(pool.snapshot().get("pod-0")));
        p.preRequest(c, new SchedulingResult(Map.of("default", r), "default"));
        Cycle again = cycle(prompt);
        p.prepare(again);
        p.produce(again, Pools.states(pool));
        assertThat(again.get(PrefixMatch.KEY).matched(pool.snapshot().get("pod-0"))).isPositive();
        assertThat(again.get(PreciseScores.KEY)).isNull();
    }
}
