package dev.homing.core.director;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A gateway that went down the fallback list reports the endpoint that served the request: the load and the prefix
 * ownership the pick credited move there.
 */
class ServedElsewhereTest {

    private final EndpointPool pool = warmed(Pools.of(3));
    private final Director director = new Director(pool, DefaultConfig.resolve(BuiltIns.registry(),
            new PluginContext(new FakeTicker(), new SplittableRandom(1), pool)).policy(), new FakeTicker());

    private static EndpointPool warmed(EndpointPool pool) {
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        return pool;
    }

    private EndpointState other(String than) {
        return pool.snapshot().endpoints().stream().filter(e -> !e.name().equals(than)).findFirst().orElseThrow();
    }

    @Test
    void theLoadMovesToTheEndpointThatServedAndIsReleasedThere() throws Exception {
        Dispatch d = director.dispatch(Requests.completion(Requests.prose(1, 100)));
        String picked = d.target().name();
        long tokens = pool.load(picked).inFlightTokens();
        EndpointState served = other(picked);

        d.servedBy(served);

        assertThat(d.target().name()).isEqualTo(served.name());
        assertThat(pool.load(picked).inFlightRequests()).isZero();
        assertThat(pool.load(picked).inFlightTokens()).isZero();
        assertThat(pool.load(served.name()).inFlightRequests()).isEqualTo(1);
        assertThat(pool.load(served.name()).inFlightTokens()).isEqualTo(tokens);
        assertThat(d.targets().getFirst().name()).isEqualTo(served.name());
        d.complete(Outcome.of(Outcome.Cause.NATURAL, 200));
        d.close();
        for (EndpointState e : pool.snapshot().endpoints()) {
            assertThat(e.inFlightRequests()).as(e.name()).isZero();
            assertThat(e.inFlightTokens()).as(e.name()).isZero();
        }
    }

    @Test
    void thePromptIsHomeWhereItWasServedNotWhereItWasPicked() throws Exception {
        String prompt = Requests.prose(2, 300);
        String served;
        try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
            EndpointState elsewhere = other(d.target().name());
            served = elsewhere.name();
            d.servedBy(elsewhere);
            d.complete(Outcome.of(Outcome.Cause.NATURAL, 200));
        }
        ApproxPrefixCacheProducer producer = director.policy().producers().stream()
                .filter(ApproxPrefixCacheProducer.class::isInstance).map(ApproxPrefixCacheProducer.class::cast)
                .findFirst().orElseThrow();
        long blocks = producer.index().size();
        assertThat(blocks).isPositive();
        for (EndpointState e : pool.snapshot().endpoints()) {
            assertThat(producer.index().size(e.name())).as(e.name()).isEqualTo(e.name().equals(served) ? blocks : 0);
        }
        List<String> next = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (Dispatch d = director.dispatch(Requests.completion(prompt))) {
                next.add(d.target().name());
            }
        }
        assertThat(next).containsOnly(served);
    }

    @Test
    void blocksThePickHeldBeforeStayWithIt() throws Exception {
        String shared = Requests.prose(3, 300);
        String picked;
        try (Dispatch d = director.dispatch(Requests.completion(shared))) {
            picked = d.target().name();
        }
        long before = producer().index().size(picked);
        try (Dispatch d = director.dispatch(Requests.completion(shared + " And one more question about it?"))) {
            assertThat(d.target().name()).isEqualTo(picked);
            assertThat(producer().index().size(picked)).isGreaterThan(before);
            d.servedBy(other(picked));
        }
        assertThat(producer().index().size(picked)).isEqualTo(before);
    }

    @Test
    void blocksALaterRequestRecordedForThePickStayWhenAnEarlierOneIsServedElsewhere() throws Exception {
        String prompt = Requests.prose(9, 300);
        Dispatch first = director.dispatch(Requests.completion(prompt));
        String picked = first.target().name();
        Dispatch second = director.dispatch(Requests.completion(prompt));
        assertThat(second.target().name()).isEqualTo(picked); // home, and really served there
        long blocks = producer().index().size(picked);
        first.servedBy(other(picked));
        assertThat(producer().index().size(picked)).as("the second request's blocks stay").isEqualTo(blocks);
        first.close();
        second.close();
    }

    @Test
    void servedByThePickOrAfterTheEndChangesNothing() throws Exception {
        Dispatch d = director.dispatch(Requests.completion(Requests.prose(4, 50)));
        EndpointState picked = d.target();
        d.servedBy(pool.snapshot().get(picked.name()));
        assertThat(d.target().name()).isEqualTo(picked.name());
        assertThat(pool.load(picked.name()).inFlightRequests()).isEqualTo(1);
        d.close();
        d.servedBy(other(picked.name()));
        for (EndpointState e : pool.snapshot().endpoints()) {
            assertThat(e.inFlightRequests()).as(e.name()).isZero();
        }
    }

    @Test
    void anEndpointThatJoinedAfterTheDecisionIsCreditedTheWholePrompt() throws Exception {
        Dispatch d = director.dispatch(Requests.completion(Requests.prose(5, 100)));
        List<Endpoint> grown = new ArrayList<>(pool.snapshot().endpoints().stream().map(EndpointState::endpoint).toList());
        grown.add(new Endpoint("pod-new", "10.0.0.99", 8000));
        pool.setEndpoints(grown);
        EndpointState late = pool.snapshot().get("pod-new");
        d.servedBy(late);
        assertThat(pool.load("pod-new").inFlightRequests()).isEqualTo(1);
        assertThat(pool.load("pod-new").pendingPrefillTokens()).isEqualTo(d.cycle().promptTokens());
        d.close();
        assertThat(pool.load("pod-new").inFlightRequests()).isZero();
    }

    @Test
    void servedToldAfterTheFirstTokenLeavesNoPrefillPending() throws Exception {
        Dispatch d = director.dispatch(Requests.completion(Requests.prose(8, 100)));
        d.firstToken();
        EndpointState served = other(d.target().name());
        d.servedBy(served);
        assertThat(pool.load(served.name()).inFlightRequests()).isEqualTo(1);
        assertThat(pool.load(served.name()).pendingPrefillTokens()).isZero();
        d.close();
    }

    @Test
    void aNewcomerServedElsewhereCountsAsReceivedThere() throws Exception {
        EndpointPool two = warmed(Pools.of(2));
        Director d2 = new Director(two, DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(new FakeTicker(), new SplittableRandom(1), two)).policy(), new FakeTicker());
        String picked;
        try (Dispatch d = d2.dispatch(Requests.completion(Requests.prose(6, 60)))) {
            picked = d.target().name();
            d.servedBy(two.snapshot().endpoints().stream().filter(e -> !e.name().equals(picked)).findFirst()
                    .orElseThrow());
        }
        // The spreader now sees both pods as having received a newcomer, the pick longest ago: the next newcomer goes
        // there. Had the reroute not been told, the other pod would look never used and take it.
        try (Dispatch d = d2.dispatch(Requests.completion(Requests.prose(7, 60)))) {
            assertThat(d.target().name()).isEqualTo(picked);
        }
    }

    private ApproxPrefixCacheProducer producer() {
        return director.policy().producers().stream().filter(ApproxPrefixCacheProducer.class::isInstance)
                .map(ApproxPrefixCacheProducer.class::cast).findFirst().orElseThrow();
    }
}
