package dev.homing.core.plugins.flowcontrol;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.PluginConfigException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PriorityUsageLimitPolicyTest {

    private static PriorityUsageLimitPolicy policy(String json) {
        return PriorityUsageLimitPolicy.create("p", params(json), context());
    }

    @ParameterizedTest(name = "priority {0}: {1}")
    @CsvSource({"-5, 0.5", "-1, 0.5", "0, 0.8", "9, 0.8", "10, 1.0", "100, 1.0"})
    void aPriorityTakesTheHighestTierNotAboveIt(int priority, double ceiling) {
        PriorityUsageLimitPolicy p = policy("{'threshold':0.5,'tiers':[{'minPriority':10,'threshold':1.0},"
                + "{'minPriority':0,'threshold':0.8}]}");
        assertThat(p.ceiling(0.3, priority)).isEqualTo(ceiling);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {'threshold':0}                                              | must be in (0, 1]
            {'threshold':1.5}                                            | must be in (0, 1]
            {'tiers':[{'minPriority':1,'threshold':0}]}                  | tiers[minPriority 1].threshold
            {'tiers':[{'minPriority':1.5,'threshold':0.5}]}              | needs an integer
            {'tiers':[{'minPriority':1,'threshold':0.5},{'minPriority':1,'threshold':0.6}]} | have minPriority 1
            {'tiers':{'minPriority':1}}                                  | must be a list
            """)
    void badParametersAreRefused(String json, String message) {
        assertThatThrownBy(() -> policy(json)).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0", "5", "-3"})
    void withoutTiersEveryPriorityHasTheThreshold(int priority) {
        assertThat(policy("{}").ceiling(0.9, priority)).isEqualTo(1.0);
        assertThat(policy("{'threshold':0.7}").ceiling(0.9, priority)).isEqualTo(0.7);
    }
}
