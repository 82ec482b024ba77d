package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Values no option accepts are named back to the user with exit code 2, never as a stack trace. */
class OptionErrorsTest {

    @Test
    void badValuesAreNamedWithoutAStackTrace() {
        CliRun interval = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--scrape-interval", "soon");
        assertThat(interval.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(interval.err()).startsWith("homing serve: ").contains("soon").doesNotContain("\tat ");

        CliRun endpoints = CliRun.of("serve", "--endpoints", "a=nowhere");
        assertThat(endpoints.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(endpoints.err()).startsWith("homing serve: ").contains("nowhere").doesNotContain("\tat ");

        CliRun preset = CliRun.of("up", "--preset", "no-such-preset");
        assertThat(preset.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(preset.err()).startsWith("homing up: ").contains("no-such-preset").doesNotContain("\tat ");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--sample-every 7s           | the duration (1m) must be a whole number of sampling intervals (7s)",
        "--minutes 0                 | --minutes must be at least 1, got 0",
        "--concurrency 0             | concurrency must be at least 1, got 0",
        "--kill-every soon           | soon",
        "--rate -3                   | the rate must be a positive number of requests a second, got -3.0",
    })
    void badSoakSettingsExitTwoBeforeAnythingStarts(String option, String message) {
        String[] o = option.strip().split(" ");
        CliRun run = o[0].equals("--minutes") ? CliRun.of("soak", o[0], o[1])
                : CliRun.of("soak", "--minutes", "1", o[0], o[1]);
        assertThat(run.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(run.err()).startsWith("homing soak: ").contains(message).doesNotContain("\tat ");
        assertThat(run.out()).isEmpty(); // nothing was started
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "p=127.0.0.1:8001;llm-d.ai/role=prefill,d=127.0.0.1:8002;llm-d.ai/role=de code | endpoint 'd=127.0.0.1:8002;llm-d.ai/role=de code': label 'llm-d.ai/role=de code': a label value must be empty or consist of",
        "p=127.0.0.1:8001;LLM-D.ai/role=prefill                                         | label 'LLM-D.ai/role=prefill': the prefix before '/' must be a DNS subdomain",
        "p=127.0.0.1:8001;llm-d.ai/role                                                 | endpoint 'p=127.0.0.1:8001;llm-d.ai/role': label 'llm-d.ai/role' has no value",
        "p=127.0.0.1:8001,p=127.0.0.1:8002                                              | endpoint 'p=127.0.0.1:8002': the name 'p' is already endpoint 'p=127.0.0.1:8001'",
        "p=127.0.0.1:8001,q=127.0.0.1:8001                                              | endpoint 'q=127.0.0.1:8001': the address 127.0.0.1:8001 is already endpoint 'p=127.0.0.1:8001'",
        "p=127.0.0.1:8001;homing.dev/kv-events-endpoint=10.0.0.7:5557                   | endpoint 'p=127.0.0.1:8001;homing.dev/kv-events-endpoint=10.0.0.7:5557': label 'homing.dev/kv-events-endpoint=10.0.0.7:5557': the value of homing.dev/kv-events-endpoint must be tcp://HOST:PORT",
        "p=127.0.0.1:8001;homing.dev/kv-events-replay-endpoint=tcp://*:5558             | endpoint 'p=127.0.0.1:8001;homing.dev/kv-events-replay-endpoint=tcp://*:5558': label 'homing.dev/kv-events-replay-endpoint=tcp://*:5558': the value of homing.dev/kv-events-replay-endpoint must be tcp://HOST:PORT",
        "p=::1:8000                                                                     | endpoint 'p=::1:8000': an IPv6 host goes in brackets",
    })
    void badLabelledEndpointsExitTwoNamingTheItem(String endpoints, String message) {
        CliRun run = CliRun.of("serve", "--endpoints", endpoints);
        assertThat(run.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(run.err()).startsWith("homing serve: ").contains(message).doesNotContain("\tat ");
    }

    @Test
    void exactlyOneEndpointSourceIsRequired(@TempDir Path dir) throws Exception {
        CliRun none = CliRun.of("serve");
        assertThat(none.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(none.err()).contains("Missing required argument").contains("--endpoints").contains("--endpoints-file");

        Path file = Files.writeString(dir.resolve("endpoints.yaml"), "endpoints: []\n");
        CliRun both = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--endpoints-file", file.toString());
        assertThat(both.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(both.err()).contains("mutually exclusive");
    }

    @Test
    void aBrokenEndpointsFileExitsTwoNamingItsLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("endpoints.yaml"),
                "endpoints:\n- name: p\n  address: 127.0.0.1:8001\n  labels: {llm-d.ai/role: 7}\n");
        CliRun run = CliRun.of("serve", "--endpoints-file", file.toString(), "--port", "0", "--admin-port", "0");
        assertThat(run.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(run.err()).startsWith("homing: " + file + ":4: label 'llm-d.ai/role' of endpoints[0] must be a string")
                .doesNotContain("\tat ");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--pd 1                    | --pd expects PREFILL:DECODE pod counts such as 1:2, got '1'",
        "--pd 1:x                  | --pd expects PREFILL:DECODE",
        "--pd 0:2                  | --pd needs at least one prefill and one decode pod, got 0:2",
        "--pd 1:2 --pods 3         | give --pods or --pd, not both",
        "--pd 1:2 --precise        | --pd with --precise needs --config FILE",
    })
    void badPdSplitsExitTwo(String args, String message) {
        CliRun run = CliRun.of(("up " + args + " --port 0 --admin-port 0").split(" "));
        assertThat(run.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(run.err()).startsWith("homing up: ").contains(message).doesNotContain("\tat ");
    }

    @Test
    void kubernetesOptionsThatCannotWorkAreNamed() {
        CliRun orphan = CliRun.of("serve", "--endpoints", "a=127.0.0.1:9", "--ha-enable-leader-election");
        assertThat(orphan.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(orphan.err()).startsWith("homing serve: ").contains("--ha-enable-leader-election go with --pool-name")
                .doesNotContain("\tat ");
        CliRun group = CliRun.of("serve", "--pool-name", "p", "--pool-group", "inference.networking.x-k8s.io");
        assertThat(group.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(group.err()).contains("--pool-group inference.networking.x-k8s.io: Homing reads InferencePool "
                + "inference.networking.k8s.io/v1 only");
        CliRun ports = CliRun.of("serve", "--endpoint-selector", "app=vllm");
        assertThat(ports.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(ports.err()).contains("--endpoint-target-ports is needed with --endpoint-selector");
        CliRun selector = CliRun.of("serve", "--endpoint-selector", "app in (", "--endpoint-target-ports", "8000");
        assertThat(selector.exit()).isEqualTo(Main.EXIT_CONFIG);
        assertThat(selector.err()).startsWith("homing serve: ").doesNotContain("\tat ");
    }
}
