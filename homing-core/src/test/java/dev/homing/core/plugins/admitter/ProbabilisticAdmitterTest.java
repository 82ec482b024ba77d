package dev.homing.core.plugins.admitter;

import static dev.homing.core.fixtures.Pools.scrape;
import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbabilisticAdmitterTest {

    private static ProbabilisticAdmitter admitter(String json) {
        return ProbabilisticAdmitter.create(null, params(json), context());
    }

    @Test
    void llmDsDefaultsShedNothingAtLowSaturationAndEverythingFromAboutAThird() {
        ProbabilisticAdmitter a = admitter("{}");
        assertThat(a.sheddingProbability(0.0)).isZero();
        assertThat(a.sheddingProbability(0.2)).isCloseTo(Math.pow(0.2, 5) * 300, within(1e-12)); // ~9.6 %
        assertThat(a.sheddingProbability(0.3)).isCloseTo(0.729, within(1e-9));
        // 100 % from (1/300)^(1/5) = 0.3196...
        assertThat(a.sheddingProbability(0.319)).isLessThan(1.0);
        assertThat(a.sheddingProbability(0.3197)).isEqualTo(1.0);
        assertThat(a.sheddingProbability(0.34)).isEqualTo(1.0);
        assertThat(a.sheddingProbability(2.0)).isEqualTo(1.0);
    }

    @Test
    void powerAndKShapeTheCurve() {
        ProbabilisticAdmitter a = admitter("{'power':2,'k':4}");
        assertThat(a.sheddingProbability(0.25)).isCloseTo(0.25, within(1e-12)); // 0.0625 * 4
        assertThat(a.sheddingProbability(0.5)).isEqualTo(1.0);
    }

    @Test
    void saturationIsTheMeanOfEachEndpointsTighterResourceAndANeverScrapedOneCountsFull() {
        EndpointPool pool = Pools.of(3);
        scrape(pool, "pod-0", new EndpointMetrics(0, 1, 0.4, 16, 1000, Set.of(), Set.of(), -1, 0)); // 0.5
        scrape(pool, "pod-1", new EndpointMetrics(10, 1, 0.2, 16, 1000, Set.of(), Set.of(), -1, 0)); // 2
        assertThat(admitter("{}").saturation(Pools.states(pool))).isCloseTo(3.5 / 3, within(1e-12));
        assertThat(admitter("{'queueDepthThreshold':10,'kvCacheUtilThreshold':0.4}").saturation(Pools.states(pool)))
                .isCloseTo((1.0 + 1.0 + 1.0) / 3, within(1e-12));
    }

    @Test
    void aSheddableRequestIsRefusedAboutAsOftenAsTheCurveSaysAndPriorityZeroNever() {
        ProbabilisticAdmitter a = admitter("{'power':1,'k':1}"); // probability = saturation
        EndpointPool pool = Pools.of(2);
        scrape(pool, "pod-0", new EndpointMetrics(2, 1, 0.1, 16, 1000, Set.of(), Set.of(), -1, 0)); // 0.4
        scrape(pool, "pod-1", new EndpointMetrics(3, 1, 0.1, 16, 1000, Set.of(), Set.of(), -1, 0)); // 0.6
        int refused = 0;
        int n = 4000;
        for (int i = 0; i < n; i++) {
            try {
                a.admit(new Cycle(Requests.completion("hi").withPriority(-1), pool.snapshot(), 0),
                        Pools.states(pool));
            } catch (SchedulingException e) {
                // llm-d's director answers any admitter's refusal with Internal (500), no dropped reason
                assertThat(e.status()).isEqualTo(500);
                assertThat(e.droppedReason()).isNull();
                assertThat(e.getMessage()).startsWith("request cannot be admitted: sheddable request dropped by "
                        + "probabilistic-admitter (pool saturation 0.500, shedding probability 0.50)");
                refused++;
            }
        }
        // saturation 0.5: binomial(4000, 0.5) has sd ~32; 5 sd either side
        assertThat(refused).isBetween(n / 2 - 160, n / 2 + 160);
        for (int i = 0; i < 200; i++) {
            assertThatCode(() -> a.admit(new Cycle(Requests.completion("hi"), pool.snapshot(), 0),
                    Pools.states(pool))).doesNotThrowAnyException();
        }
    }

    @Test
    void theSameSeedShedsTheSameRequests() {
        EndpointPool pool = Pools.of(1);
        scrape(pool, "pod-0", new EndpointMetrics(1, 1, 0.1, 16, 1000, Set.of(), Set.of(), -1, 0)); // 0.2
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (StringBuilder out : List.of(first, second)) {
            ProbabilisticAdmitter a = admitter("{}"); // a fresh context seeded alike
            for (int i = 0; i < 300; i++) {
                try {
                    a.admit(new Cycle(Requests.completion("hi").withPriority(-2), pool.snapshot(), 0),
                            Pools.states(pool));
                    out.append('+');
                } catch (SchedulingException e) {
                    out.append('-');
                }
            }
        }
        assertThat(first.toString()).isEqualTo(second.toString()).contains("-").contains("+");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {'queueDepthThreshold':0}   | queueDepthThreshold
            {'kvCacheUtilThreshold':0}  | kvCacheUtilThreshold
            {'power':-1}                | power
            {'k':0}                     | k
            """)
    void thresholdsPowerAndKMustBeAboveZeroAsInLlmD(String json, String parameter) {
        assertThatThrownBy(() -> admitter(json)).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'" + parameter + "' must be");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {'kvCacheUtilThreshold':-0.1}  | -0.1
            {'power':0}                    | 0.0
            {'k':-3}                       | -3.0
            """)
    void theMessageNamesTheValue(String json, String value) {
        String parameter = json.substring(2, json.indexOf('\'', 2));
        assertThatThrownBy(() -> admitter(json)).isInstanceOf(PluginConfigException.class)
                .hasMessage("parameter '" + parameter + "' must be a finite number > 0, got " + value);
    }

    @ParameterizedTest(name = "kvCacheUtilThreshold {0}")
    @CsvSource({"1.0, 0.4", "1.5, 0.2666666666666667", "0.4, 1.0"})
    void anyKvCacheThresholdAboveZeroLoadsAsLlmDsFactoryAllowsAboveOne(double threshold, double expected) {
        EndpointPool pool = Pools.of(1);
        scrape(pool, "pod-0", new EndpointMetrics(0, 1, 0.4, 16, 1000, Set.of(), Set.of(), -1, 0));
        ProbabilisticAdmitter a = admitter("{'kvCacheUtilThreshold':" + threshold + "}");
        assertThat(a.saturation(Pools.states(pool))).isCloseTo(expected, within(1e-12));
        assertThat(a.saturation(List.of())).isZero();
    }
}
