package dev.homing.core.plugins.scorer;

import static dev.homing.core.plugins.PluginFixtures.endpoint;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import dev.homing.core.plugins.PluginFixtures;
import dev.homing.protocol.openai.ApiKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextLengthAwareTest {

    private static final String LABEL = "llm-d.ai/context-length-range";
    private final EndpointPool pool = pool(
            endpoint("short", 1, LABEL, "0-2048"),
            endpoint("long", 2, LABEL, "2048-8192"),
            endpoint("any", 3),
            endpoint("broken", 4, LABEL, "lots"),
            endpoint("exact", 5, LABEL, "1000-1000"),
            endpoint("inverted", 6, LABEL, "500-100"));

    /** A text prompt of 4000 characters: (4002 bytes − 2 quotes) / 4 = 1000 tokens. */
    private Cycle thousandTokens() {
        return PluginFixtures.cycle(pool, Requests.completion("x".repeat(4000)));
    }

    @Test
    void scoresByRangeFitWithInRangeAboveEveryOutOfRange() {
        double[] s = new ContextLengthAware(null, LABEL, false).score(thousandTokens(), pool.snapshot().endpoints());
        // 0.3 + 0.7 · (0.7 / (1 + 2048/10000) + 0.3 · (2048 − 1000)/2048)
        assertThat(s[0]).isCloseTo(0.8141674448041167, within(1e-12));
        assertThat(s[1]).isCloseTo(0.146484375, within(1e-12)); // 0.3 / (1 + 1048/1000)
        assertThat(s[2]).isEqualTo(0.5);
        assertThat(s[3]).isEqualTo(0.0);
        assertThat(s[4]).isEqualTo(1.0);
        assertThat(s[5]).isEqualTo(0.0);
    }

    @Test
    void filteringKeepsUnlabelledAndInRangeOnly() {
        assertThat(names(new ContextLengthAware(null, LABEL, true).filter(thousandTokens(), pool.snapshot().endpoints())))
                .containsExactly("short", "any", "exact");
        assertThat(new ContextLengthAware(null, LABEL, false).filter(thousandTokens(), pool.snapshot().endpoints()))
                .hasSize(6);
    }

    @Test
    void filteringMayKeepNone() {
        EndpointPool only = pool(endpoint("long", 1, LABEL, "2048-8192"));
        Cycle c = PluginFixtures.cycle(only, Requests.completion("short"));
        assertThat(new ContextLengthAware(null, LABEL, true).filter(c, only.snapshot().endpoints())).isEmpty();
    }

    @Test
    void tokenPromptsAreCountedExactly() {
        Cycle c = PluginFixtures.cycle(pool, Requests.fromBody(ApiKind.COMPLETIONS,
                "{\"model\":\"m\",\"prompt\":[1,2,3,4,5]}", Map.of()));
        EndpointPool one = pool(endpoint("small", 1, LABEL, "0-4"));
        // 5 tokens, one above the range
        assertThat(new ContextLengthAware(null, LABEL, false).score(c, one.snapshot().endpoints())[0])
                .isCloseTo(0.3 / 1.001, within(1e-12));
    }

    @Test
    void tokensAProducerObtainedAreCountedExactly() {
        Cycle c = PluginFixtures.cycle(pool, Requests.completion("x".repeat(4000))); // 1,000 by the estimate
        c.put(PromptTokens.KEY, new PromptTokens(new int[5]));
        EndpointPool one = pool(endpoint("small", 1, LABEL, "0-4"));
        assertThat(new ContextLengthAware(null, LABEL, false).score(c, one.snapshot().endpoints())[0])
                .isCloseTo(0.3 / 1.001, within(1e-12));
        assertThat(new ContextLengthAware(null, LABEL, true).filter(c, one.snapshot().endpoints())).isEmpty();
        c.put(PromptTokens.KEY, new PromptTokens(new int[4]));
        assertThat(new ContextLengthAware(null, LABEL, true).filter(c, one.snapshot().endpoints())).hasSize(1);
    }

    @Test
    void chatCountsAQuarterOfTheMessagesBytes() {
        String messages = "[{\"role\":\"user\",\"content\":\"" + "y".repeat(3970) + "\"}]"; // 4000 bytes
        Cycle c = PluginFixtures.cycle(pool, Requests.fromBody(ApiKind.CHAT_COMPLETIONS,
                "{\"model\":\"m\",\"messages\":" + messages + "}", Map.of()));
        assertThat(ContextLengthAware.contextLength(c.request().fields())).isEqualTo(1000);
    }

    @Test
    void anotherLabelCanBeConfigured() {
        EndpointPool custom = pool(endpoint("a", 1, "ctx", "0-10"), endpoint("b", 2, LABEL, "0-10"));
        Cycle c = PluginFixtures.cycle(custom, Requests.completion("x".repeat(4000)));
        double[] s = new ContextLengthAware(null, "ctx", false).score(c, custom.snapshot().endpoints());
        assertThat(s[0]).isCloseTo(0.3 / (1 + 990 / 1000.0), within(1e-12));
        assertThat(s[1]).isEqualTo(0.5);
        assertThat(new ContextLengthAware(null, "ctx", false).score(c, List.of())).isEmpty();
    }

    @Test
    void labelMustNotBeEmpty() {
        assertThatThrownBy(() -> new ContextLengthAware(null, "", true))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'label'");
    }
}
