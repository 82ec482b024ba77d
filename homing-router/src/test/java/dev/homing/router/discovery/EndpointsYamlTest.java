package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EndpointsYamlTest {

    @Test
    void readsNamesAddressesHostsAndPortsAndLabels() throws Exception {
        assertThat(EndpointsYaml.parse("""
                # what docs/CONFIGURATION.md shows
                endpoints:
                - name: vllm-prefill-0
                  address: 10.0.0.11:8000
                  labels:
                    llm-d.ai/role: prefill
                - name: vllm-decode-0
                  host: 10.0.0.21
                  port: 8000
                  labels:
                    llm-d.ai/role: decode
                    llm-d.ai/context-length-range: "0-8192"
                    homing.dev/kv-events-endpoint: tcp://10.0.0.21:5557
                    empty:
                - address: "[::1]:9"
                """, "endpoints.yaml")).containsExactly(
                new Endpoint("vllm-prefill-0", "10.0.0.11", 8000, Map.of("llm-d.ai/role", "prefill")),
                new Endpoint("vllm-decode-0", "10.0.0.21", 8000, Map.of("llm-d.ai/role", "decode",
                        "llm-d.ai/context-length-range", "0-8192",
                        "homing.dev/kv-events-endpoint", "tcp://10.0.0.21:5557", "empty", "")),
                new Endpoint("[::1]:9", "::1", 9));
    }

    @Test
    void anEmptyListIsNoEndpoints() throws Exception {
        assertThat(EndpointsYaml.parse("endpoints: []\n", "e.yaml")).isEmpty();
    }

    /** Each error names the file and the line of the offending item, and what is wrong. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "''                                                    | e.yaml: the file is empty",
        "'- name: a'                                           | e.yaml:1: the endpoints file must be a mapping, got a list",
        "'endpoint: []'                                        | e.yaml:1: unknown field 'endpoint' in the endpoints file; known fields: endpoints",
        "'apiVersion: v1'                                      | e.yaml:1: unknown field 'apiVersion'",
        "'endpoints: 3'                                        | e.yaml:1: 'endpoints' must be a list, got a number",
        "'endpoints:\\n- a=h:1'                                 | e.yaml:2: endpoints[0] must be a mapping, got a string",
        "'endpoints:\\n- name: a\\n  adress: h:1'                | e.yaml:3: unknown field 'adress' in endpoints[0]; known fields: address, host, labels, name, port",
        "'endpoints:\\n- name: a'                               | e.yaml:2: endpoints[0] needs 'address: HOST:PORT' (or 'host' and 'port')",
        "'endpoints:\\n- name: a\\n  host: h'                    | e.yaml:2: endpoints[0] needs 'address",
        "'endpoints:\\n- name: a\\n  address: h'                 | e.yaml:3: endpoints[0]: expected host:port, got 'h'",
        "'endpoints:\\n- name: a\\n  address: h:1\\n  port: 2'    | e.yaml:3: endpoints[0]: give either 'address' or 'host' and 'port', not both",
        "'endpoints:\\n- name: a\\n  host: h\\n  port: \"80\"'    | e.yaml:4: 'port' in endpoints[0] must be a whole number, got a string '80'",
        "'endpoints:\\n- name: a\\n  host: h\\n  port: 0'         | e.yaml:4: endpoints[0]: port must be 1 to 65535, got 0",
        "'endpoints:\\n- name: a\\n  host: h h\\n  port: 1'       | e.yaml:3: endpoints[0]: host 'h h' must be a name or address without spaces",
        "'endpoints:\\n- name: a\\n  host: \"[::1]\"\\n  port: 1' | e.yaml:3: endpoints[0]: host '[::1]' must be given without brackets",
        "'endpoints:\\n- name: a\\n  address: \"::1:80\"'         | e.yaml:3: endpoints[0]: an IPv6 host goes in brackets",
        "'endpoints:\\n- name: a b\\n  address: h:1'             | e.yaml:2: endpoints[0]: the name 'a b' must have no spaces or control characters",
        "'endpoints:\\n- name: \"a\\u0007\"\\n  address: h:1'      | e.yaml:2: endpoints[0]: the name 'a?' must have no spaces or control characters",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    homing.dev/kv-events-endpoint: \"tcp://*:5557\"' | e.yaml:4: label 'homing.dev/kv-events-endpoint' of endpoints[0]: the value of homing.dev/kv-events-endpoint must be tcp://HOST:PORT",
        "'endpoints:\\n- name: 7\\n  address: h:1'               | e.yaml:2: 'name' in endpoints[0] must be a string, got a number",
        "'endpoints:\\n- name: \"\"\\n  address: h:1'            | e.yaml:2: 'name' in endpoints[0] must not be empty",
        "'endpoints:\\n- address: h:1\\n  labels: [a]'           | e.yaml:3: 'labels' in endpoints[0] must be a mapping of KEY: VALUE, got a list",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    tier: 1'   | e.yaml:4: label 'tier' of endpoints[0] must be a string, got a number; quote it",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    gpu: true' | e.yaml:4: label 'gpu' of endpoints[0] must be a string, got a boolean; quote it",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    a/b/c: x'  | e.yaml:4: label 'a/b/c' of endpoints[0]: a label key has at most one '/'",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    role: \"pre fill\"' | e.yaml:4: label 'role' of endpoints[0]: a label value must be empty or consist of",
        "'endpoints:\\n- address: h:1\\n  labels:\\n    role: a\\n    role: b' | e.yaml:5: key 'role' appears twice in one mapping",
        "'endpoints:\\n- name: a\\n  address: h:1\\n- name: a\\n  address: h:2' | e.yaml:4: endpoint name 'a' is already used at line 2",
        "'endpoints:\\n- name: a\\n  address: h:1\\n- name: b\\n  host: h\\n  port: 1' | e.yaml:4: address h:1 is already the endpoint at line 2",
        "'endpoints: []\\n---\\nendpoints: []'                  | e.yaml:3: more than one YAML document; an endpoints file is one document",
        "'endpoints: [}'                                       | e.yaml:1: not valid YAML",
    })
    void errorsNameTheFileAndLine(String yaml, String message) {
        assertThatThrownBy(() -> EndpointsYaml.parse(yaml.replace("\\n", "\n"), "e.yaml"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(message);
    }
}
