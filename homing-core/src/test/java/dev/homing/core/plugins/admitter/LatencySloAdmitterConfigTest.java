package dev.homing.core.plugins.admitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.scorer.predicted.PredictedTtftScorer;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code latency-slo-admitter} loaded from YAML through the ConfigResolver, and at work in the director. */
class LatencySloAdmitterConfigTest {

    private final FakeTicker ticker = new FakeTicker();
    private final EndpointPool pool = Pools.of(3);

    /** Every pod scraped now: busy (4 running), warm (KV 50 %), nothing waiting; not saturated for llm-d. */
    private void busyNow() {
        for (EndpointState e : Pools.states(pool)) {
            Pools.scrape(pool, e.name(), new EndpointMetrics(0, 4, 0.5, 16, 1000, Set.of(), Set.of(), -1,
                    ticker.nanos()));
        }
    }

    private ResolvedConfig load(String plugins) throws ConfigException {
        String yaml = """
                apiVersion: llm-d.ai/v1alpha1
                kind: EndpointPickerConfig
                plugins:
                """ + plugins;
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(yaml, "slo.yaml"),
                new PluginContext(ticker, new SplittableRandom(7), pool));
    }

    @Test
    void itLoadsAsAnAdmitterReadingTheConfigsPredictorAndWarnsHowItDiffersFromLlmD() throws Exception {
        ResolvedConfig r = load("""
                - type: latency-slo-admitter
                  name: latency-admitter
                - type: predicted-ttft-scorer
                - type: queue-scorer
                """);
        assertThat(r.policy().admitters()).singleElement().isInstanceOfSatisfying(LatencySloAdmitter.class,
                a -> assertThat(a.predictor()).isSameAs(r.plugins().get("predicted-ttft-scorer")));
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).startsWith("slo.yaml:4: plugin 'latency-admitter' "
                + "(latency-slo-admitter): ").contains(LatencySloAdmitter.DIFFERS));
    }

    @Test
    void withoutAPredictorItLoadsAndAdmitsEverything() throws Exception {
        ResolvedConfig r = load("""
                - type: latency-slo-admitter
                - type: queue-scorer
                """);
        LatencySloAdmitter a = (LatencySloAdmitter) r.policy().admitters().get(0);
        assertThat(a.predictor()).isNull();
        busyNow();
        try (Dispatch d = new Director(pool, r.policy(), ticker).dispatch(
                LatencySloAdmitterTest.request(100, -1, Map.of("x-slo-ttft-ms", "1")))) {
            assertThat(d.target()).isNotNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            latencyPredictionInfoProducerName: nope   | slo.yaml:6: plugin 'latency-slo-admitter' (latency-slo-admitter): parameter 'latencyPredictionInfoProducerName': 'nope' is not a plugin of this config
            latencyPredictionInfoProducerName: queue-scorer | 'queue-scorer' is a queue-scorer; it must name a predicted-ttft-scorer
            """)
    void aWrongPredictorNameIsAConfigErrorAtItsLine(String parameter, String message) {
        assertThatThrownBy(() -> load("""
                - type: latency-slo-admitter
                  parameters:
                    %s
                - type: predicted-ttft-scorer
                  name: ttft
                - type: queue-scorer
                """.formatted(parameter))).isInstanceOf(ConfigException.class).hasMessageContaining(message)
                .hasMessageEndingWith("predicted-ttft-scorers: ttft");
    }

    @Test
    void twoPredictorsNeedTheParameterToSayWhichOne() throws Exception {
        String two = """
                - type: predicted-ttft-scorer
                  name: fast
                - type: predicted-ttft-scorer
                  name: slow
                """;
        assertThatThrownBy(() -> load("- type: latency-slo-admitter\n" + two)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("the config has 2 predicted-ttft-scorers");
        ResolvedConfig r = load("""
                - type: latency-slo-admitter
                  parameters: {latencyPredictionInfoProducerName: slow}
                """ + two);
        assertThat(((LatencySloAdmitter) r.policy().admitters().get(0)).predictor())
                .isSameAs(r.plugins().get("slow"));
    }

    @Test
    void inTheDirectorATightSloRefusesASheddableRequestWithA500AndLeavesNoLoad() throws Exception {
        ResolvedConfig r = load("""
                - type: latency-slo-admitter
                - type: predicted-ttft-scorer
                """);
        PredictedTtftScorer s = (PredictedTtftScorer) r.plugins().get("predicted-ttft-scorer");
        LatencySloAdmitterTest.teach(s, pool, ticker);
        busyNow();
        Director d = new Director(pool, r.policy(), ticker);
        double lawMs = LatencySloAdmitterTest.law(LatencySloAdmitterTest.PROMPT) * 1000;
        assertThatThrownBy(() -> d.dispatch(LatencySloAdmitterTest.request(LatencySloAdmitterTest.PROMPT, -1,
                Map.of("x-slo-ttft-ms", Double.toString(lawMs / 2)))))
                .isInstanceOfSatisfying(SchedulingException.class, e -> {
                    assertThat(e.status()).isEqualTo(500);
                    assertThat(e.droppedReason()).isNull();
                    assertThat(e.getMessage()).startsWith("request cannot be admitted: no valid endpoint");
                });
        assertThat(Pools.states(pool).stream().mapToLong(EndpointState::inFlightRequests).sum()).isZero();
        // a looser SLO, or the same one at priority 0, is placed
        try (Dispatch ok = d.dispatch(LatencySloAdmitterTest.request(LatencySloAdmitterTest.PROMPT, -1,
                Map.of("x-slo-ttft-ms", Double.toString(lawMs * 2))))) {
            assertThat(ok.target()).isNotNull();
        }
        try (Dispatch ok = d.dispatch(LatencySloAdmitterTest.request(LatencySloAdmitterTest.PROMPT, 0,
                Map.of("x-slo-ttft-ms", Double.toString(lawMs / 2))))) {
            assertThat(ok.target()).isNotNull();
        }
    }
}
