package dev.homing.core.config;

import static dev.homing.core.config.ConfigResolverTest.resolve;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A broken config stops start-up with a message naming the line and the known choices. (A parameter no plugin knows
 * does not: it is a warning, {@link ConfigWarningsTest}.)
 */
class ConfigErrorsTest {

    private static final String HEAD = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown plugin type | plugins:\\n- type: queue-scorr\\n | test.yaml:4: unknown plugin type 'queue-scorr'; known types: | queue-scorer
            bad parameter value | plugins:\\n- type: no-hit-lru-scorer\\n  parameters:\\n    lruSize: -4\\n | test.yaml:6: plugin 'no-hit-lru-scorer' (no-hit-lru-scorer): parameter 'lruSize' must be > 0 | -4
            dangling pluginRef | plugins:\\n- type: queue-scorer\\nschedulingProfiles:\\n- name: default\\n  plugins:\\n  - pluginRef: queue\\n | test.yaml:8: profile 'default' refers to 'queue', which is not a plugin; plugins: | queue-scorer
            negative weight | plugins:\\n- type: queue-scorer\\nschedulingProfiles:\\n- name: default\\n  plugins:\\n  - pluginRef: queue-scorer\\n    weight: -2\\n | test.yaml:8: profile 'default': weight of 'queue-scorer' must be a finite number >= 0 | -2
            weight not a number | plugins:\\n- type: queue-scorer\\nschedulingProfiles:\\n- name: default\\n  plugins:\\n  - pluginRef: queue-scorer\\n    weight: heavy\\n | test.yaml:9: 'weight' in a plugin of profile default must be a number, got a string 'heavy' | heavy
            weight on a picker | plugins:\\n- type: max-score-picker\\nschedulingProfiles:\\n- name: default\\n  plugins:\\n  - pluginRef: max-score-picker\\n    weight: 2\\n | test.yaml:8: profile 'default': 'max-score-picker' is not a scorer, so it takes no weight | picker
            two pickers | plugins:\\n- type: max-score-picker\\n- name: other\\n  type: max-score-picker\\nschedulingProfiles:\\n- name: default\\n  plugins:\\n  - pluginRef: max-score-picker\\n  - pluginRef: other\\n | test.yaml:11: profile 'default' has two pickers | other
            duplicate plugin name | plugins:\\n- type: queue-scorer\\n- type: queue-scorer\\n | test.yaml:5: two plugins are named 'queue-scorer' | name
            unknown top-level field | plugin:\\n- type: queue-scorer\\n | test.yaml:3: unknown field 'plugin' in an EndpointPickerConfig; known fields: | plugins
            unknown plugin field | plugins:\\n- type: queue-scorer\\n  params: {}\\n | test.yaml:5: unknown field 'params' in plugins[0]; known fields: name, parameters, type | params
            two profiles no handler | plugins:\\n- type: queue-scorer\\nschedulingProfiles:\\n- name: a\\n  plugins: []\\n- name: b\\n  plugins: []\\n | test.yaml:6: 2 scheduling profiles need a profile handler that says which to run (disagg-profile-handler, for instance); single-profile-handler takes one profile | single-profile-handler
            parameters not a mapping | plugins:\\n- type: queue-scorer\\n  parameters: [1]\\n | test.yaml:5: 'parameters' of plugin queue-scorer must be a mapping | list
            index parameters beside a named producer | plugins:\\n- type: approx-prefix-cache-producer\\n  name: p\\n- type: prefix-cache-scorer\\n  parameters:\\n    prefixMatchInfoProducerName: p\\n    blockSizeTokens: 32\\n | test.yaml:6: plugin 'prefix-cache-scorer': index parameters [blockSizeTokens] belong on its producer 'p' | p
            index parameters beside a declared producer | plugins:\\n- type: approx-prefix-cache-producer\\n- type: prefix-cache-scorer\\n  parameters:\\n    blockSizeTokens: 32\\n | test.yaml:5: plugin 'prefix-cache-scorer': index parameters [blockSizeTokens] belong on its producer 'approx-prefix-cache-producer' | producer
            precise index parameters beside a named producer | plugins:\\n- type: token-producer\\n- type: precise-prefix-cache-scorer\\n  parameters:\\n    prefixMatchInfoProducerName: token-producer\\n    tokenProcessorConfig: {blockSize: 32}\\n | test.yaml:5: plugin 'precise-prefix-cache-scorer': index parameters [tokenProcessorConfig] belong on its producer 'token-producer' | token-producer
            producer that produces no matches | plugins:\\n- type: queue-scorer\\n- type: prefix-cache-scorer\\n  parameters:\\n    prefixMatchInfoProducerName: queue-scorer\\n | test.yaml:5: plugin 'prefix-cache-scorer': its prefixMatchInfoProducerName 'queue-scorer' produces no prefix matches; producers: (none) | (none)
            invalid YAML | plugins: [\\n  - a\\n  b: c\\n | test.yaml:4: not valid YAML: expected the node content | flow
            """)
    void brokenConfigsNameTheLine(String why, String body, String startsWith, String alsoContains) {
        String yaml = HEAD + body.replace("\\n", "\n");
        assertThatThrownBy(() -> resolve(yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(startsWith)
                .hasMessageContaining(alsoContains);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            wrong apiVersion | apiVersion: v1\\nkind: EndpointPickerConfig\\n | test.yaml:1: unsupported apiVersion 'v1'; known: llm-d.ai/v1alpha1, inference.networking.x-k8s.io/v1alpha1
            wrong kind | apiVersion: llm-d.ai/v1alpha1\\nkind: ConfigMap\\n | test.yaml:2: unsupported kind 'ConfigMap'; expected EndpointPickerConfig
            no apiVersion | kind: EndpointPickerConfig\\n | test.yaml:1: an EndpointPickerConfig needs 'apiVersion'
            empty file | '' | test.yaml: the file is empty; expected an EndpointPickerConfig
            """)
    void documentLevelErrors(String why, String yaml, String message) {
        assertThatThrownBy(() -> resolve(yaml.replace("\\n", "\n"))).hasMessage(message);
    }
}
