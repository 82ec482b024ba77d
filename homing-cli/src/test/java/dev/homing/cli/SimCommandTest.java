package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimCommandTest {

    private static SimCommand parsed(String... args) {
        SimCommand sim = new SimCommand();
        new CommandLine(sim).parseArgs(args);
        return sim;
    }

    @Test
    void responsesAreStoredOnlyWhenVllmsEnvironmentSaysSo() {
        SimCommand sim = parsed("--model", "m");
        assertThat(sim.config(Map.of()).responsesStoreCapacity()).isZero();
        assertThat(sim.config(Map.of("VLLM_ENABLE_RESPONSES_API_STORE", "0")).responsesStoreCapacity()).isZero();
        assertThat(sim.config(Map.of("VLLM_ENABLE_RESPONSES_API_STORE", "1")).responsesStoreCapacity())
                .isEqualTo(10_000);
    }
}
