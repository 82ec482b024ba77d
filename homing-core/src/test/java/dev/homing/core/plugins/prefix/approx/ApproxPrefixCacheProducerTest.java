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
        Cycle c = new Cycle(Requests.completion(prompt), pool.snapshot(), 0);
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
        p.preRequest(c, new SchedulingResult(results, "decode", prefill == null ? null : "prefill"));
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
        assertThat(first.blockSizeTokens()).isEqualTo(64); // 256 bytes per block now
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
        assertThat(m.blockSizeTokens()).isEqualTo(4);
        assertThat(m.totalBlocks()).isEqualTo((prompt.length() + 2 + 15) / 16);
    }

    @Test
    void parametersAreChecked() {
        assertThatThrownBy(() -> producer("{\"blockSize\":64}")).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("blockSizeTokens");
        assertThatThrownBy(() -> producer("{\"blockSizeTokens\":0}")).hasMessageContaining("'blockSizeTokens'");
        assertThatThrownBy(() -> producer("{\"maxIndexedBlocks\":0}")).hasMessageContaining("'maxIndexedBlocks'");
    }
}
