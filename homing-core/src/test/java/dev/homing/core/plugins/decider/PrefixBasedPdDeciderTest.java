package dev.homing.core.plugins.decider;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import org.junit.jupiter.api.Test;

class PrefixBasedPdDeciderTest {

    private final EndpointPool pool = Pools.of(2);
    private final EndpointState decode = pool.snapshot().get("pod-1");

    /** A 400-character prompt (402 bytes with its quotes: 100 tokens) of which pod-1 holds {@code blocks} × 16. */
    private Cycle holding(int blocks) {
        Cycle c = new Cycle(Requests.completion("z".repeat(400)), pool.snapshot(), 0);
        c.put(PrefixMatch.KEY, new PrefixMatch(new int[] {7, blocks}, 7, 16));
        return c;
    }

    private PrefixBasedPdDecider decider(String json) {
        return PrefixBasedPdDecider.create(null, params(json), context());
    }

    @Test
    void disaggregatesWhenTheUncachedPartReachesTheThreshold() {
        PrefixBasedPdDecider d = decider("{'nonCachedTokens':50}");
        assertThat(d.disaggregate(holding(0), decode)).isTrue();  // 100 − 0
        assertThat(d.disaggregate(holding(3), decode)).isTrue();  // 100 − 48 = 52
        assertThat(d.disaggregate(holding(4), decode)).isFalse(); // 100 − 64 = 36
    }

    @Test
    void zeroDisablesIt() {
        assertThat(decider("{}").disaggregate(holding(0), decode)).isFalse();
    }

    @Test
    void aPromptShorterThanTheThresholdsStaysLocal() {
        assertThat(decider("{'nonCachedTokens':101}").disaggregate(holding(0), decode)).isFalse();
        assertThat(decider("{'nonCachedTokens':100}").disaggregate(holding(0), decode)).isTrue();
        assertThat(decider("{'nonCachedTokens':10,'promptTokens':200}").disaggregate(holding(0), decode)).isFalse();
    }

    @Test
    void withoutPrefixInformationItStaysLocal() {
        Cycle c = new Cycle(Requests.completion("z".repeat(400)), pool.snapshot(), 0);
        assertThat(decider("{'nonCachedTokens':1}").disaggregate(c, decode)).isFalse();
    }

    @Test
    void negativeThresholdsAreRefused() {
        assertThatThrownBy(() -> decider("{'nonCachedTokens':-1}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'nonCachedTokens'");
        assertThatThrownBy(() -> decider("{'promptTokens':-1}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'promptTokens'");
    }
}
