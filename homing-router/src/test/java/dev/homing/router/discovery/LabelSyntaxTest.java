package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Kubernetes' own examples of valid and invalid qualified names and label values (apimachinery's tests). */
class LabelSyntaxTest {

    @ParameterizedTest
    @ValueSource(strings = {"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
        "now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
        "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123",
        "requests.storage-foo", "llm-d.ai/role", "llm-d.ai/context-length-range"})
    void validKeys(String key) {
        assertThat(LabelSyntax.keyProblem(key)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
        "Example.com/abc", "example_com/abc", "example.com/", "/simple", "a b", "x/*", "homing.dev/kv-events"})
    void invalidKeys(String key) {
        assertThat(LabelSyntax.keyProblem(key)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234",
        "A.B_c-D", "prefill", "0-4096"})
    void validValues(String value) {
        assertThat(LabelSyntax.valueProblem("k", value)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad",
        "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "tcp://10.0.0.1:5557", "a b"})
    void invalidValues(String value) {
        assertThat(LabelSyntax.valueProblem("k", value)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"homing.dev/kv-events-endpoint", "homing.dev/kv-events-replay-endpoint"})
    void homingsAddressLabelsTakeAnAddressTheRouterCanDial(String key) {
        assertThat(LabelSyntax.keyProblem(key)).isNull();
        for (String good : List.of("tcp://10.0.0.7:5557", "tcp://[::1]:5557", "tcp://[fd00::7]:1",
                "tcp://vllm-0.vllm.ns.svc.cluster.local:5557", "tcp://localhost:65535")) {
            assertThat(LabelSyntax.valueProblem(key, good)).as(good).isNull();
        }
        for (String bad : List.of("", "10.0.0.7:5557", "ipc:///tmp/kv", "tcp://", "tcp://10.0.0.7", "tcp://x :1",
                "tcp://10.0.0.7:x", "tcp://10.0.0.7:0", "tcp://::1:5557", "tcp://10.0.0.7:5557/", "TCP://h:1")) {
            assertThat(LabelSyntax.valueProblem(key, bad)).as(bad)
                    .startsWith("the value of " + key + " must be tcp://HOST:PORT");
        }
        assertThat(LabelSyntax.valueProblem(key, "tcp://*:5557")).as("how a pod binds, not where to dial it")
                .contains("'*' is where a pod binds");
    }
}
