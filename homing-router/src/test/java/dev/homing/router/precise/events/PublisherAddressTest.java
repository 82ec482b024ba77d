package dev.homing.router.precise.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.precise.KvEventsSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PublisherAddressTest {

    private final KvEventsSettings settings = new KvEventsSettings("kv@", 4, "vllm", true, "", 6000, "");

    @Test
    void withoutLabelsThePodsHostAtTheSocketPortAndNoReplay() {
        assertThat(PublisherAddress.of(new Endpoint("a", "10.0.0.7", 8000), settings))
                .isEqualTo(new PublisherAddress("tcp://10.0.0.7:6000", null));
        assertThat(PublisherAddress.of(new Endpoint("a", "fd00::1", 8000), settings).events())
                .isEqualTo("tcp://[fd00::1]:6000");
    }

    @Test
    void labelsNameThePublisherAndItsReplaySocket() {
        Endpoint e = new Endpoint("a", "127.0.0.1", 8000, Map.of(
                PublisherAddress.EVENTS_LABEL, "tcp://127.0.0.1:40001",
                PublisherAddress.REPLAY_LABEL, " tcp://127.0.0.1:40002 "));
        assertThat(PublisherAddress.of(e, settings))
                .isEqualTo(new PublisherAddress("tcp://127.0.0.1:40001", "tcp://127.0.0.1:40002"));
        Endpoint blank = new Endpoint("a", "10.0.0.7", 8000, Map.of(PublisherAddress.EVENTS_LABEL, " "));
        assertThat(PublisherAddress.of(blank, settings).events()).isEqualTo("tcp://10.0.0.7:6000");
    }
}
