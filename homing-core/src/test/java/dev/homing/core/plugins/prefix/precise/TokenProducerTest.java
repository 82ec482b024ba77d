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

    private Parameters read;

    private TokenProducer producer(String params, boolean answer) throws Exception {
        TokenSource source = (r, url, timeout) -> {
            asked.add(url);
            timeouts.add(timeout);
            return answer ? Optional.of(new int[] {1, 2, 3}) : Optional.empty();
        };
        read = Parameters.of(new ObjectMapper().readTree(params.replace('\'', '"')));
        return TokenProducer.create(TokenProducer.TYPE, null, read,
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

    @Test
    void vllmHttpIsTheRenderEndpointAndVllmTimeoutItsGoDuration() throws Exception {
        // llm-d's names at 520af47: vllm.http (later vllm.url), vllm.timeout, vllm.mmTimeout
        TokenProducer p = producer("{'modelName':'m','vllm':{'http':'http://render:8000/','timeout':'1m30s'}}", true);
        p.prepare(new Cycle(Requests.completion("hello"), pool.snapshot(), 0));
        assertThat(asked).containsExactly("http://render:8000");
        assertThat(timeouts).containsExactly(Duration.ofSeconds(90));
        assertThat(read.notices()).isEmpty();
    }

    @Test
    void vllmTimeoutWinsOverTheOlderTopLevelOneAndMmTimeoutIsCheckedThenSaidToBeUnused() throws Exception {
        TokenProducer p = producer("{'timeout':'2s','vllm':{'url':'http://r:1','timeout':'250ms','mmTimeout':'30s'}}",
                true);
        p.prepare(new Cycle(Requests.completion("hello"), pool.snapshot(), 0));
        assertThat(timeouts).containsExactly(Duration.ofMillis(250));
        assertThat(read.notices()).singleElement().satisfies(n -> {
            assertThat(n.path()).isEqualTo("vllm.mmTimeout");
            assertThat(n.message()).contains("not used");
        });
        assertThatThrownBy(() -> producer("{'vllm':{'mmTimeout':'soon'}}", true)).hasMessageContaining("'mmTimeout'");
        assertThatThrownBy(() -> producer("{'vllm':{'timeout':'0s'}}", true)).hasMessageContaining("'timeout'");
    }

    @Test
    void theRenderEndpointIsGivenOnce() {
        assertThatThrownBy(() -> producer("{'vllm':{'url':'http://a:1','http':'http://b:1'}}", true))
                .hasMessageContaining("'url' and 'http'");
    }

    @Test
    void udsTokenizerConfigIsReadAndCheckedButSaidNotToBeUsed() throws Exception {
        TokenProducer p = producer("{'modelName':'m','udsTokenizerConfig':{'socketFile':'/tmp/t.sock',"
                + "'timeout':'5s','maxRetries':3}}", true);
        p.prepare(new Cycle(Requests.completion("hello"), pool.snapshot(), 0));
        assertThat(asked).as("tokens still come from a render endpoint: any pod").containsExactly((String) null);
        assertThat(read.notices()).singleElement().satisfies(n -> {
            assertThat(n.path()).isEqualTo("udsTokenizerConfig");
            assertThat(n.message()).contains("no UDS tokenizer").contains("not used");
        });
        assertThatThrownBy(() -> producer("{'udsTokenizerConfig':{'maxRetries':-1}}", true))
                .hasMessageContaining("'maxRetries'");
        assertThatThrownBy(() -> producer("{'udsTokenizerConfig':{'timeout':'forever'}}", true))
                .hasMessageContaining("'timeout'");
        // as in llm-d, the two backends exclude each other once the socket is set
        assertThatThrownBy(() -> producer("{'vllm':{},'udsTokenizerConfig':{'socketFile':'/s'}}", true))
                .hasMessageContaining("only one of 'udsTokenizerConfig' or 'vllm'");
    }

    @Test
    void aKeyTheProducerDoesNotKnowIsANoticeNotAnError() throws Exception {
        producer("{'vllm':{'url':'http://r:1','omitMMKwargs':true},'tokenizersPoolConfig':{}}", true);
        assertThat(read.notices()).extracting(n -> n.path())
                .containsExactly("tokenizersPoolConfig", "vllm.omitMMKwargs");
    }
}
