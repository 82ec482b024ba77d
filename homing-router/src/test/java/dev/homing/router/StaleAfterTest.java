package dev.homing.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StaleAfterTest {

    @Test
    void metricsAreStaleAfterTheLimitButNeverBeforeTwoScrapesWereMissed() {
        RouterOptions defaults = RouterOptions.defaults(List.of());
        assertThat(RouterServer.staleAfter(defaults)).as("llm-d's 2 s, far past two 50 ms scrapes")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(RouterServer.staleAfter(defaults.with(o -> o.scrapeInterval = Duration.ofSeconds(5))))
                .as("two 5 s scrapes and a 1 s timeout").isEqualTo(Duration.ofSeconds(11));
        assertThat(RouterServer.staleAfter(defaults.with(o -> o.metricsStaleness = Duration.ZERO))).isZero();
    }
}
