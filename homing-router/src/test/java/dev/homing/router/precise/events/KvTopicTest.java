package dev.homing.router.precise.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KvTopicTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "kv@10.0.0.7@Qwen/Qwen2.5-0.5B-Instruct|10.0.0.7|Qwen/Qwen2.5-0.5B-Instruct",
            "kv@10.0.0.7:8000@meta-llama/Llama-3.1-8B|10.0.0.7:8000|meta-llama/Llama-3.1-8B",
            "kv@pod-a@m|pod-a|m",
            "kv@@m|''|m",
            // any other shape: the whole topic is the pod's id, as llm-d's parseTopic
            "pod-a|pod-a|''",
            "kv@pod-a|kv@pod-a|''",
            "kv@a@b@c|kv@a@b@c|''",
            "''|''|''",
    })
    void podAndModelComeFromThreePartTopicsOnly(String topic, String pod, String model) {
        KvTopic t = KvTopic.parse(topic);
        assertThat(t.podId()).isEqualTo(pod);
        assertThat(t.model()).isEqualTo(model);
    }
}
