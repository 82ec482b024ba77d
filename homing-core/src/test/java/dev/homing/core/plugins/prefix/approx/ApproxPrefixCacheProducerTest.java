package dev.homing.core.plugins.prefix.approx;

import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ApproxPrefixCacheProducerTest {

    private final EndpointPool pool = Pools.of(3);

    private ApproxPrefixCacheProducer producer(String params) throws Exception {
        return ApproxPrefixCacheProducer.create(null, Parameters.of(new ObjectMapper().readTree(params)),
                new PluginContext(new FakeTicker(), new SplittableRandom(1), pool));
    }

    /** The pairing moves exactly these off an older config's prefix scorer: what create reads, no more, no less. */
    @Test
    void parametersNamesEveryParameterCreateReads() {
        Parameters read = Parameters.empty();
        ApproxPrefixCacheProducer.create(null, read, new PluginContext(new FakeTicker(), new SplittableRandom(1), pool));
        assertThat(read.knownKeys()).isEqualTo(ApproxPrefixCacheProducer.PARAMETERS);
    }

    private PrefixMatch lookup(ApproxPrefixCacheProducer p, String prompt) {
        Cycle c = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        return c.get(PrefixMatch.KEY);
    }

    private void picked(ApproxPrefixCacheProducer p, String prompt, String target, String prefill) {
        pick(p, new Cycle(Requests.completion(prompt), pool.snapshot(), 0), target, prefill);
    }

    private SchedulingResult pick(ApproxPrefixCacheProducer p, Cycle c, String target, String prefill) {
        p.prepare(c);
        p.produce(c, Pools.states(pool));
        Map<String, ProfileResult> results = new LinkedHashMap<>();
        List<EndpointState> all = Pools.states(pool);
        results.put("decode", new ProfileResult("decode", List.of(), all, List.of(), new double[3],
                List.of(pool.snapshot().get(target))));
        if (prefill != null) {
            results.put("prefill", new ProfileResult("prefill", List.of(), all, List.of(), new double[3],
                    List.of(pool.snapshot().get(prefill))));
        }
        SchedulingResult result = new SchedulingResult(results, "decode", prefill == null ? null : "prefill");
        p.preRequest(c, result);
        return result;
    }

    @Test
    void recordsThePickAndItsPrefillEndpointSoRepeatsMatchThem() throws Exception {
        ApproxPrefixCacheProducer p = producer("{}");
        String prompt = Requests.prose(1, 60); // ~600 bytes: 9 blocks of 64 bytes
        PrefixMatch before = lookup(p, prompt);
        assertThat(before.totalBlocks()).isEqualTo((prompt.length() + 2 + 63) / 64);
        assertThat(before.anyHit()).isFalse();
        picked(p, prompt, "pod-2", "pod-0");
        PrefixMatch after = lookup(p, prompt);
        assertThat(after.matchedBlocks()).containsExactly(before.totalBlocks(), 0, before.totalBlocks());
    }

    @Test
    void autoTuneTakesTheEnginesBlockSizeAndCapacity() throws Exception {
        ApproxPrefixCacheProducer p = producer("{}");
        for (EndpointState e : Pools.states(pool)) {
            scrape(pool, e.name(), new EndpointMetrics(0, 0, 0, 64, 3, Set.of(), Set.of(), -1, 0));
        }
        String prompt = Requests.prose(2, 200);
        PrefixMatch first = lookup(p, prompt);
        assertThat(first.tokensPerBlock()).isEqualTo(64); // 256 bytes per block now
        // the first request after the scrape is already cut in 256-byte blocks, the size its match reports
        assertThat(first.totalBlocks()).isEqualTo((prompt.length() + 2 + 255) / 256);
        picked(p, prompt, "pod-1", null);
        assertThat(p.index().size("pod-1")).isEqualTo(3); // num_gpu_blocks: the pod cannot hold more
    }

    @Test
    void withoutAutoTuneTheConfiguredSizesHold() throws Exception {
        ApproxPrefixCacheProducer p = producer("{\"autoTune\":false,\"blockSizeTokens\":4,\"lruCapacityPerServer\":5,"
                + "\"maxPrefixTokensToMatch\":40}");
        for (EndpointState e : Pools.states(pool)) {
            scrape(pool, e.name(), new EndpointMetrics(0, 0, 0, 64, 3, Set.of(), Set.of(), -1, 0));
        }
        String prompt = Requests.prose(3, 100);
        assertThat(lookup(p, prompt).totalBlocks()).isEqualTo(10); // 40 tokens / 4 per block
        picked(p, prompt, "pod-0", null);
        assertThat(p.index().size("pod-0")).isEqualTo(5);
    }

    @Test
    void twoProducersInOneCycleKeepTheirOwnHashes() throws Exception {
        // as when a config has an approximate producer beside a precise one, whose fallback is another instance
        ApproxPrefixCacheProducer small = producer("{\"autoTune\":false,\"blockSizeTokens\":4}");
        ApproxPrefixCacheProducer large = producer("{\"autoTune\":false,\"blockSizeTokens\":16}");
        String prompt = Requests.prose(4, 60);
        Cycle c = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
        small.prepare(c);
        large.prepare(c);
        small.produce(c, Pools.states(pool));
        PrefixMatch m = c.get(PrefixMatch.KEY);
        assertThat(m.tokensPerBlock()).isEqualTo(4);
        assertThat(m.totalBlocks()).isEqualTo((prompt.length() + 2 + 15) / 16);
    }

    /**
     * A pod's response says its prompt was one token per 8 bytes: the next request's prompt is counted at 8 bytes a
     * token, a 64-byte block of the index holds 8 tokens, and the pod's share of the index holds its KV capacity at
     * that rate. Prompt and match in the same tokens: a whole match is the whole prompt, never more.
     */
    @Test
    void learntBytesPerTokenCountsPromptMatchAndCapacityAlike() throws Exception {
        ApproxPrefixCacheProducer p = producer("{\"autoTuneBytesPerToken\":true}");
        for (EndpointState e : Pools.states(pool)) {
            scrape(pool, e.name(), new EndpointMetrics(0, 0, 0, 16, 100, Set.of(), Set.of(), -1, 0));
        }
        String prompt = Requests.prose(5, 400);
        Cycle first = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
        int bytes = first.request().fields().promptBytes();
        assertThat(first.promptTokens()).isEqualTo(bytes / 4); // llm-d's four until a response says otherwise
        SchedulingResult result = pick(p, first, "pod-1", null);
        p.onComplete(first, result, new Outcome(Outcome.Cause.NATURAL, 200, bytes / 8, 10, 0));
        assertThat(p.bytesPerToken()).isCloseTo(8.0, org.assertj.core.data.Offset.offset(0.01));

        Cycle next = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
        p.prepare(next);
        p.produce(next, Pools.states(pool));
        long tokens = next.promptTokens();
        assertThat(tokens).isBetween(bytes / 8L - 1, bytes / 8L); // the rate learnt is bytes / (bytes / 8), a hair over 8
        PrefixMatch m = next.get(PrefixMatch.KEY);
        assertThat(m.tokensPerBlock()).isCloseTo(8.0, org.assertj.core.data.Offset.offset(0.01));
        long cached = PrefixMatch.cachedTokens(next, pool.snapshot().get("pod-1"), tokens);
        assertThat(cached).isLessThanOrEqualTo(tokens).isGreaterThan(tokens - 8);
        // 100 blocks of 16 tokens at 8 bytes each: 12,800 bytes, 200 of the index's 64-byte blocks
        for (int i = 0; i < 20; i++) {
            picked(p, Requests.prose(100 + i, 400), "pod-1", null);
        }
        assertThat(p.index().size("pod-1")).isEqualTo(200);
    }

    /** The pod answered with fewer cached tokens than the index claimed, then with as many: one over-claim of two. */
    @Test
    void reportsHowTheIndexsClaimsComparedWithThePodsCachedTokens() throws Exception {
        ApproxPrefixCacheProducer p = producer("{\"autoTune\":false}");
        String prompt = Requests.prose(6, 300);
        picked(p, prompt, "pod-0", null);
        long tokens = new Cycle(Requests.completion(prompt), pool.snapshot(), 0).promptTokens();
        for (long podCached : new long[] {0, tokens}) {
            Cycle c = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
            SchedulingResult r = pick(p, c, "pod-0", null);
            p.onComplete(c, r, new Outcome(Outcome.Cause.NATURAL, 200, tokens, 5, podCached));
        }
        Map<String, Double> report = p.report();
        assertThat(report).containsEntry("claimsCompared", 2.0).containsEntry("overClaimedShare", 0.5)
                .containsEntry("underClaimedShare", 0.0);
        assertThat(report.get("claimedOverCachedTokens")).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> producer("{\"blockSize\":64}")).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("blockSizeTokens");
        assertThatThrownBy(() -> producer("{\"blockSizeTokens\":0}")).hasMessageContaining("'blockSizeTokens'");
        assertThatThrownBy(() -> producer("{\"maxIndexedBlocks\":0}")).hasMessageContaining("'maxIndexedBlocks'");
    }
}
