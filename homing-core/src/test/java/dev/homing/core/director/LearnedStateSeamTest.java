package dev.homing.core.director;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.learned.RecordingLearnedState;
import dev.homing.core.plugins.BuiltIns;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The seam through which a host keeps the state plugins learn from picks (the router: in Redis, shared by replicas):
 * Homing's default config makes its approximate index and newcomer order there, begins both lookups before the
 * decision (in prepare, outside the decision lock) and finishes them in it, and writes only after the pick.
 */
class LearnedStateSeamTest {

    private final EndpointPool pool = Pools.of(3);
    private final RecordingLearnedState host = new RecordingLearnedState();
    private final Director director;

    LearnedStateSeamTest() {
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        FakeTicker ticker = new FakeTicker();
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(1), pool).withLearnedState(host);
        director = new Director(pool, DefaultConfig.resolve(BuiltIns.registry(), ctx).policy(), ticker);
    }

    @Test
    void theDefaultConfigKeepsItsIndexAndOrderWhereTheHostSays() {
        assertThat(host.made()).containsExactlyInAnyOrder("approx approx-prefix-cache-producer 1000000",
                "newcomers no-hit-lru-scorer 1024");
    }

    @Test
    void lookupsBeginBeforeTheDecisionAndWritesFollowThePick() throws Exception {
        String prompt = Requests.prose(5, 80);
        String home;
        try (Dispatch cold = director.dispatch(Requests.completion(prompt))) {
            home = cold.target().name();
            assertThat(host.calls()).containsExactly("approx lookup", "newcomers lookup", "approx lookup finished",
                    "newcomers lookup finished", "approx record " + home, "newcomer " + home);
        }
        host.clearCalls();
        try (Dispatch warm = director.dispatch(Requests.completion(prompt))) {
            assertThat(warm.target().name()).isEqualTo(home);
            // a warm request reads no order and marks no newcomer
            assertThat(host.calls()).containsExactly("approx lookup", "newcomers lookup", "approx lookup finished",
                    "approx record " + home);
        }
    }

    @Test
    void aDryRunReadsButWritesNothing() throws Exception {
        director.explain(Requests.completion(Requests.prose(6, 80)), e -> true);
        assertThat(host.calls()).containsExactly("approx lookup", "newcomers lookup", "approx lookup finished",
                "newcomers lookup finished");
    }
}
