package dev.homing.core.director;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.BuiltIns;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** llm-d's admission in the director: legacy shedding of sheddable requests, and the admitters. */
class AdmissionTest {

    private final FakeTicker ticker = new FakeTicker();
    private final EndpointPool pool = Pools.of(2);

    private Director director(String yaml) throws Exception {
        PluginContext ctx = new PluginContext(ticker, new SplittableRandom(7), pool);
        RoutingPolicy policy = new ConfigResolver(BuiltIns.registry())
                .resolve(ConfigParser.parse(yaml, "test.yaml"), ctx).policy();
        return new Director(pool, policy, ticker);
    }

    private static final String DEFAULT = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - type: queue-scorer
            """;

    /** Both pods with {@code waiting} requests queued, scraped now. */
    private void waiting(int waiting) {
        for (EndpointState e : pool.snapshot().endpoints()) {
            Pools.scrape(pool, e.name(), new EndpointMetrics(waiting, 1, 0.1, 16, 1000, Set.of(), Set.of(), -1,
                    ticker.nanos()));
        }
    }

    private static InferenceRequest at(int priority) {
        return Requests.completion("hello there").withPriority(priority);
    }

    private long inFlight() {
        return pool.snapshot().endpoints().stream().mapToLong(EndpointState::inFlightRequests).sum();
    }

    @Test
    void aSheddableRequestIsRefusedWithA429WhileThePoolIsSaturatedAndLeavesNoLoad() throws Exception {
        Director d = director(DEFAULT);
        waiting(5); // utilization-detector: 5 / queueDepthThreshold 5 = 1.0, saturated
        assertThatThrownBy(() -> d.dispatch(at(-1)))
                .isInstanceOfSatisfying(SchedulingException.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.droppedReason()).isEqualTo("rejected-saturated");
                    assertThat(e.getMessage()).contains("sheddable").contains("1.00");
                });
        assertThat(inFlight()).isZero();
    }

    @ParameterizedTest(name = "priority {0}")
    @ValueSource(ints = {0, 1, 10})
    void requestsOfPriorityZeroOrMoreAreNeverShed(int priority) throws Exception {
        Director d = director(DEFAULT);
        waiting(50);
        try (Dispatch dispatch = d.dispatch(at(priority))) {
            assertThat(dispatch.target()).isNotNull();
        }
    }

    @Test
    void justBelowSaturationASheddableRequestPasses() throws Exception {
        Director d = director(DEFAULT);
        waiting(4); // 0.8
        try (Dispatch dispatch = d.dispatch(at(-5))) {
            assertThat(dispatch.target()).isNotNull();
        }
    }

    @Test
    void staleMetricsCountAsSaturatedSoSheddingStallsRatherThanAdmittingBlind() throws Exception {
        Director d = director(DEFAULT);
        waiting(0);
        ticker.advance(java.time.Duration.ofMillis(201)); // past the detector's 200 ms
        assertThatThrownBy(() -> d.dispatch(at(-1))).isInstanceOf(SchedulingException.class);
        try (Dispatch dispatch = d.dispatch(at(0))) {
            assertThat(dispatch.target()).isNotNull();
        }
    }

    @Test
    void underFlowControlTheDirectorShedsNothingForTheQueuesHaveDecidedAlready() throws Exception {
        Director d = director("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                featureGates: [flowControl]
                plugins:
                - type: queue-scorer
                """);
        assertThat(d.policy().flowControlled()).isTrue();
        waiting(50);
        try (Dispatch dispatch = d.dispatch(at(-1))) {
            assertThat(dispatch.target()).isNotNull();
        }
    }

    @Test
    void theConfiguredDetectorJudgesSaturation() throws Exception {
        Director d = director("""
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                - type: queue-scorer
                - type: utilization-detector
                  parameters: {queueDepthThreshold: 100}
                saturationDetector:
                  pluginRef: utilization-detector
                """);
        waiting(50); // 0.5 of 100
        try (Dispatch dispatch = d.dispatch(at(-1))) {
            assertThat(dispatch.target()).isNotNull();
        }
        waiting(100);
        assertThatThrownBy(() -> d.dispatch(at(-1))).isInstanceOf(SchedulingException.class);
    }
}
