package dev.homing.sim.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KvEventsConfigTest {

    @Test
    void absentFieldsKeepVllmsDefaults() {
        KvEventsConfig c = KvEventsConfig.parse("{\"enable_kv_cache_events\":true}");
        assertThat(c.enabled()).isTrue();
        assertThat(c.publisher()).isEqualTo("zmq"); // newer vLLM: zmq once events are on
        assertThat(c.publishes()).isTrue();
        assertThat(c.endpoint()).isEqualTo("tcp://*:5557");
        assertThat(c.replayEndpoint()).isNull();
        assertThat(c.bufferSteps()).isEqualTo(10_000);
        assertThat(c.hwm()).isEqualTo(100_000);
        assertThat(c.maxQueueSize()).isEqualTo(100_000);
        assertThat(c.topic()).isEmpty();
        assertThat(KvEventsConfig.parse("{}").publishes()).isFalse();
        assertThat(KvEventsConfig.parse("{\"enable_kv_cache_events\":true,\"publisher\":\"null\"}").publishes())
                .isFalse();
    }

    @Test
    void readsEveryField() {
        KvEventsConfig c = KvEventsConfig.parse("""
                {"enable_kv_cache_events":true,"publisher":"zmq","endpoint":"tcp://router:5557",
                 "replay_endpoint":"tcp://*:5558","buffer_steps":5,"hwm":7,"max_queue_size":9,"topic":"kv@p@m"}""");
        assertThat(c).extracting(KvEventsConfig::endpoint, KvEventsConfig::replayEndpoint,
                KvEventsConfig::bufferSteps, KvEventsConfig::hwm, KvEventsConfig::maxQueueSize, KvEventsConfig::topic)
                .containsExactly("tcp://router:5557", "tcp://*:5558", 5, 7, 9, "kv@p@m");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "{\"enable_kv_cache_events\":\"yes\"}", "{\"endpoint\":5}",
        "{\"buffer_steps\":1.5}", "{\"buffer_steps\":0}", "{\"publisher\":\"kafka\"}", "{\"topics\":\"x\"}", "{"})
    void refusesWhatVllmRefuses(String json) {
        assertThatThrownBy(() -> KvEventsConfig.parse(json)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kv-events-config");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "unset", value = {"unset, true", "1, true", "0, false", "' 0 ', false", "2, true"})
    void readsTheIntHashEnvironmentVariableAsVllmDoes(String value, boolean expected) {
        assertThat(KvEventsConfig.intBlockHashesFromEnv(value)).isEqualTo(expected);
    }

    @Test
    void aNonIntegerIntHashVariableIsAnError() {
        assertThatThrownBy(() -> KvEventsConfig.intBlockHashesFromEnv("true"))
                .hasMessageContaining("VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES");
    }

    @ParameterizedTest
    @CsvSource({"tcp://*:5557, true", "tcp://0.0.0.0:5557, false", "tcp://[::]:5557, true",
        "tcp://127.0.0.1:*, true", "ipc:///tmp/kv.sock, true", "inproc://kv, true", "tcp://router.svc:5557, false"})
    void bindsOrConnectsByVllmsRule(String endpoint, boolean binds) {
        assertThat(ZmqEndpoints.binds(endpoint)).isEqualTo(binds);
    }
}
