package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EndpointAddressTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "10.0.0.7:8000                 | 10.0.0.7                | 8000 | 10.0.0.7:8000",
        "localhost:1                   | localhost               | 1    | localhost:1",
        "vllm-0.vllm.ns.svc.cluster.local.:8000 | vllm-0.vllm.ns.svc.cluster.local. | 8000 | vllm-0.vllm.ns.svc.cluster.local.:8000",
        "my_pod:80                     | my_pod                  | 80   | my_pod:80",
        "[::1]:8000                    | ::1                     | 8000 | [::1]:8000",
        "[fd00::7:1]:9                 | fd00::7:1               | 9    | [fd00::7:1]:9",
        "[1:2:3:4:5:6:7:8]:9           | 1:2:3:4:5:6:7:8         | 9    | [1:2:3:4:5:6:7:8]:9",
        "[::ffff:10.0.0.7]:9           | ::ffff:10.0.0.7         | 9    | [::ffff:10.0.0.7]:9",
        "[::]:9                        | ::                      | 9    | [::]:9",
    })
    void addressesAsWritten(String address, String host, int port, String text) {
        EndpointAddress at = EndpointAddress.parse(address);
        assertThat(at).isEqualTo(new EndpointAddress(host, port));
        assertThat(at.text()).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "::1:8000            | an IPv6 host goes in brackets, e.g. [::1]:8000, got '::1:8000'",
        "fd00::7:8000        | an IPv6 host goes in brackets",
        "[::1:80             | '[::1:80' opens '[' but does not close it",
        "[::1]8000           | expected [IPv6]:port",
        "[::1]               | expected [IPv6]:port",
        "[10.0.0.7]:80       | brackets are for an IPv6 host",
        "[[::1]]:80          | expected [IPv6]:port, e.g. [::1]:8000, got '[[::1]]:80'",
        "a=b=h:1             | host 'a=b=h' is neither a DNS name nor an IPv4 or IPv6 address",
        "b=h:1               | host 'b=h' is neither a DNS name nor an IPv4 or IPv6 address",
        "10.0.0.256:80       | host '10.0.0.256' is neither",
        "10.0.1:80           | host '10.0.1' is neither",
        "1234:80             | host '1234' is neither",
        "-pod:80             | host '-pod' is neither",
        "a..b:80             | host 'a..b' is neither",
        "[1:2:3:4:5:6:7:8:9]:80 | host '1:2:3:4:5:6:7:8:9' is neither",
        "[1::2::3]:80        | host '1::2::3' is neither",
        "[fe80::1%eth0]:80   | host 'fe80::1%eth0' is neither",
        "[::g]:80            | host '::g' is neither",
        "h:                  | expected host:port",
        ":80                 | expected host:port",
        "[::1]:              | port '' is not a number",
    })
    void badAddressesSayWhatIsWrong(String address, String message) {
        assertThatThrownBy(() -> EndpointAddress.parse(address)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[::1]", "[::1", "::1]", "h h", "h\u0007", "b=h", "*"})
    void aFilesHostIsAHostWithoutBrackets(String host) {
        assertThatThrownBy(() -> EndpointAddress.of(host, 8000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("host '" + host + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"::1", "fd00::7", "10.0.0.7", "vllm-0"})
    void aFilesHostMayBeAnyForm(String host) {
        assertThat(EndpointAddress.of(host, 8000).host()).isEqualTo(host);
    }
}
