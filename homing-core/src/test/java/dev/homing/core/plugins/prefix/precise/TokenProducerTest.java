package dev.homing.core.plugins.prefix.precise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TokenProducerTest {

    private final EndpointPool pool = Pools.of(1);
    private final List<String> asked = new ArrayList<>();
    private final List<Duration> timeouts = new ArrayList<>();

    private TokenProducer producer(String params, boolean answer) throws Exception {
        TokenSource source = (r, url, timeout) -> {
            asked.add(url);
            timeouts.add(timeout);
            return answer ? Optional.of(new int[] {1, 2, 3}) : Optional.empty();
        };
        return TokenProducer.create(TokenProducer.TYPE, null, Parameters.of(new ObjectMapper().readTree(params)),
                new PluginContext(new FakeTicker(), new SplittableRandom(1), pool).withTokens(source));
    }

    @Test
    void putsTheTokensInTheCycleOnceAskingTheConfiguredRenderer() throws Exception {
        TokenProducer p = producer("{\"modelName\":\"m\",\"vllm\":{\"url\":\"http://render:8000\"},\"timeout\":\"300ms\"}", true);
        Cycle c = new Cycle(Requests.completion("hello"), pool.snapshot(), 0);
        p.prepare(c);
        p.prepare(c);
        assertThat(c.get(PromptTokens.KEY).ids()).containsExactly(1, 2, 3);
        assertThat(asked).containsExactly("http://render:8000");
        assertThat(timeouts).containsExactly(Duration.ofMillis(300));
    }

    @Test
    void unresolvedPlaceholdersMeanAnyPodAndMissesAreCounted() throws Exception {
        TokenProducer p = producer("{\"vllm\":{\"url\":\"${VLLM_RENDER_URL}\"}}", false);
        Cycle c = new Cycle(Requests.completion("hello"), pool.snapshot(), 0);
        p.prepare(c);
        assertThat(asked).containsExactly((String) null);
        assertThat(c.get(PromptTokens.KEY)).isNull();
        assertThat(p.misses()).isEqualTo(1);
    }

    @Test
    void onlyTheVllmBackendIsSpoken() {
        assertThatThrownBy(() -> producer("{\"backend\":\"sglang\"}", true)).hasMessageContaining("'backend'");
    }
}
