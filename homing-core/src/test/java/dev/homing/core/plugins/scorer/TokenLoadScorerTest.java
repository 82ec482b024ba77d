package dev.homing.core.plugins.scorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.Lease;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenLoadScorerTest {

    private final EndpointPool pool = Pools.of(3);
    private final TokenLoadScorer scorer = new TokenLoadScorer(null, 1000);

    @Test
    void oneMinusInFlightTokensOverTheThreshold() {
        pool.load("pod-1").acquire(100, 250);
        pool.load("pod-2").acquire(500, 900);
        pool.load("pod-2").acquire(500, 600);
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isEqualTo(1.0);
        assertThat(s[1]).isCloseTo(0.75, within(1e-12));
        assertThat(s[2]).isEqualTo(0.0); // 1500 capped at 1000
    }

    @Test
    void otherReplicasTokensCountAsInFlight() {
        pool.load("pod-0").acquire(100, 250);
        pool.load("pod-0").setRemote(1, 250);
        pool.load("pod-2").setRemote(2, 2000);
        double[] s = scorer.score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(0.5, within(1e-12));
        assertThat(s[1]).isEqualTo(1.0);
        assertThat(s[2]).isEqualTo(0.0);
    }

    @Test
    void tokensLeaveWhenTheRequestEnds() {
        Lease lease = pool.load("pod-0").acquire(100, 400);
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))[0]).isCloseTo(0.6, within(1e-12));
        lease.close();
        assertThat(scorer.score(Cycles.of(pool), Pools.states(pool))).containsExactly(1.0, 1.0, 1.0);
        assertThat(scorer.score(Cycles.of(pool), List.of())).isEmpty();
    }

    @Test
    void defaultThresholdIs128RequestsOf32kTokens() {
        pool.load("pod-0").acquire(0, 1_048_576);
        double[] s = new TokenLoadScorer(null, TokenLoadScorer.DEFAULT_QUEUE_THRESHOLD_TOKENS)
                .score(Cycles.of(pool), Pools.states(pool));
        assertThat(s[0]).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void thresholdMustBePositive() {
        assertThatThrownBy(() -> new TokenLoadScorer(null, -5))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'queueThresholdTokens'");
    }
}
