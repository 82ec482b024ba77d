package dev.homing.core.director;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.BuiltIns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DirectorTest {

    private static Director director(EndpointPool pool) {
        FakeTicker ticker = new FakeTicker();
        RoutingPolicy policy = DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(ticker, new SplittableRandom(1), pool)).policy();
        return new Director(pool, policy, ticker);
    }

    private static EndpointPool warmedPool(int pods) {
        EndpointPool pool = Pools.of(pods);
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        return pool;
    }

    @Test
    void aBurstOfNewcomersIsSpreadEvenlyBeforeAnyScrape() throws Exception {
        EndpointPool pool = warmedPool(3);
        Director director = director(pool);
        List<Dispatch> inFlight = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            inFlight.add(director.dispatch(Requests.completion(
                    "Write one sentence about topic number " + i + " in cloud computing.")));
        }
        Map<String, Long> perPod = inFlight.stream()
                .collect(Collectors.groupingBy(d -> d.target().name(), TreeMap::new, Collectors.counting()));
        assertThat(perPod).containsOnly(Map.entry("pod-0", 10L), Map.entry("pod-1", 10L), Map.entry("pod-2", 10L));
        inFlight.forEach(Dispatch::close);
        for (String pod : perPod.keySet()) {
            assertThat(pool.load(pod).inFlightRequests()).isZero();
        }
    }

    @Test
    void hundredNewcomersOverEightPodsLandWithinTenPercentOfTheMean() throws Exception {
        EndpointPool pool = warmedPool(8);
        Director director = director(pool);
        Map<String, Integer> perPod = new TreeMap<>();
        List<Dispatch> inFlight = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Dispatch d = director.dispatch(Requests.completion(Requests.prose(i, 40)));
            perPod.merge(d.target().name(), 1, Integer::sum);
            inFlight.add(d);
        }
        assertThat(perPod).hasSize(8);
        assertThat(perPod.values()).allSatisfy(n -> assertThat(n).isBetween(12, 13)); // mean 12.5
        inFlight.forEach(Dispatch::close);
    }

    @Test
    void repeatsOfAPromptGoHome() throws Exception {
        EndpointPool pool = warmedPool(3);
        Director director = director(pool);
        String prompt = Requests.prose(7, 200);
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
                targets.add(d.target().name());
                d.complete(Outcome.of(Outcome.Cause.NATURAL, 200));
            }
        }
        assertThat(targets).hasSize(6).containsOnly(targets.get(0));
    }

    @Test
    void homeLosesToLoadWhenItsQueueRuns() throws Exception {
        EndpointPool pool = warmedPool(3);
        Director director = director(pool);
        String prompt = Requests.prose(3, 200);
        String home;
        try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
            home = d.target().name();
        }
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), e.name().equals(home) ? metrics(40, 8, 0.9) : metrics(0, 0, 0.05));
        }
        try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
            assertThat(d.target().name()).isNotEqualTo(home);
        }
    }

    @Test
    void eligibilityExcludesEndpointsAndNoneLeftIs503() throws Exception {
        EndpointPool pool = warmedPool(2);
        Director director = director(pool);
        try (Dispatch d = director.dispatch(Requests.completion("x"), e -> !e.name().equals("pod-0"))) {
            assertThat(d.target().name()).isEqualTo("pod-1");
        }
        assertThatThrownBy(() -> director.dispatch(Requests.completion("x"), e -> false))
                .isInstanceOfSatisfying(SchedulingException.class, e -> assertThat(e.status()).isEqualTo(503));
        assertThatThrownBy(() -> director(new EndpointPool()).dispatch(Requests.completion("x")))
                .hasMessageContaining("pool is empty");
    }

    @Test
    void aFailingPreRequestHookLeavesNoLoadBehind() {
        EndpointPool pool = warmedPool(2);
        Director director = director(pool);
        RoutingPolicy base = director.policy();
        PreRequest failing = new FailingHook();
        director.setPolicy(new RoutingPolicy(base.scheduler(), base.producers(), base.admitters(),
                List.of(failing), List.of(), base.responseHooks()));
        assertThatThrownBy(() -> director.dispatch(Requests.completion("x"))).hasMessage("boom");
        for (EndpointState e : pool.snapshot().endpoints()) {
            assertThat(e.inFlightRequests()).isZero();
        }
    }

    @Test
    void closingReleasesLoadOnceWhateverTheOutcome() throws Exception {
        EndpointPool pool = warmedPool(1);
        Director director = director(pool);
        Dispatch d = director.dispatch(Requests.completion("hello there"));
        assertThat(pool.load("pod-0").inFlightRequests()).isEqualTo(1);
        assertThat(pool.load("pod-0").inFlightTokens()).isPositive();
        d.close();
        d.close();
        assertThat(pool.load("pod-0").inFlightRequests()).isZero();
        assertThat(pool.load("pod-0").inFlightTokens()).isZero();
    }

    @Test
    void theTargetsPendingPrefillIsTheUncachedPromptUntilTheFirstToken() throws Exception {
        EndpointPool pool = warmedPool(1);
        Director director = director(pool);
        try (Dispatch cold = director.dispatch(Requests.tokens(320))) {
            assertThat(pool.load("pod-0").pendingPrefillTokens()).isEqualTo(320);
            cold.firstToken();
            assertThat(pool.load("pod-0").pendingPrefillTokens()).isZero();
        }
        // The router wrote the prompt's 20 blocks at the pick: only the last block's worth is not held.
        try (Dispatch warm = director.dispatch(Requests.tokens(320))) {
            assertThat(pool.load("pod-0").pendingPrefillTokens()).isBetween(0L, 16L);
        }
        assertThat(pool.load("pod-0").pendingPrefillTokens()).isZero();
    }

    @Test
    void explainingChangesNothing() throws Exception {
        EndpointPool pool = warmedPool(3);
        Director director = director(pool);
        String prompt = Requests.prose(9, 100);
        SchedulingResult first = director.explain(Requests.completion(prompt), e -> true).result();
        SchedulingResult again = director.explain(Requests.completion(prompt), e -> true).result();
        assertThat(again.target().name()).isEqualTo(first.target().name());
        assertThat(pool.snapshot().endpoints()).allSatisfy(e -> assertThat(e.inFlightRequests()).isZero());
        assertThat(first.primary().scores()).extracting(s -> s.type())
                .containsExactly("prefix-cache-scorer", "kv-cache-utilization-scorer", "queue-depth-scorer",
                        "no-hit-lru-scorer", "active-request-scorer", "token-load-scorer", "predicted-ttft-scorer");
        // The explained pick is the one a real dispatch then makes; and nothing was recorded for the prompt.
        try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
            assertThat(d.target().name()).isEqualTo(first.target().name());
            assertThat(first.primary().scores().get(0).scores()).containsOnly(0.0);
        }
    }

    private static final class FailingHook extends NamedPlugin implements PreRequest {
        FailingHook() {
            super("failing", null);
        }

        @Override
        public void preRequest(Cycle cycle, SchedulingResult result) {
            throw new IllegalStateException("boom");
        }
    }
}
