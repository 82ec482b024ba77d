package dev.homing.bench.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

    private static final long S = 1_000_000_000L;

    @Test
    void percentilesRatesAndHitRateFromRecords() {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            // arrive at i s, first token after i*0.1 s, 11 tokens ending 1 s after the first
            records.add(new RequestRecord("r" + i, 0, i * S, i % 2 == 0 ? "a" : "b", 200, i * S / 10,
                    i * S / 10 + S, 100, 50, 11));
        }
        records.add(new RequestRecord("bad", 0, 5 * S, null, 503, -1, -1, 0, -1, 0));
        Summary s = Summary.of(records);
        assertThat(s.requests()).isEqualTo(11);
        assertThat(s.served()).isEqualTo(10);
        assertThat(s.ttftP50()).isCloseTo(0.5, within(1e-9));
        assertThat(s.ttftP90()).isCloseTo(0.9, within(1e-9));
        assertThat(s.ttftP99()).isCloseTo(1.0, within(1e-9));
        assertThat(s.itlMean()).isCloseTo(0.1, within(1e-9));
        // span: first arrival 1 s, last end 10 + 1 + 1 = 12 s -> 11 s; 110 tokens
        assertThat(s.outputTokensPerSecond()).isCloseTo(10.0, within(1e-9));
        assertThat(s.hitRate()).isCloseTo(0.5, within(1e-9));
        assertThat(s.errors()).containsEntry(503, 1);
        assertThat(s.perPod()).containsEntry("a", 5).containsEntry("b", 5);
    }

    @Test
    void nothingServedGivesNaNNotAnError() {
        Summary s = Summary.of(List.of(new RequestRecord("x", 0, 0, null, 0, -1, -1, 10, -1, 0)));
        assertThat(s.ttftP90()).isNaN();
        assertThat(s.hitRate()).isNaN();
    }
}
