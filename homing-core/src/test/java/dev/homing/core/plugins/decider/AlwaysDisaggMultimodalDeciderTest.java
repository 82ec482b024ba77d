package dev.homing.core.plugins.decider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.protocol.openai.ApiKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlwaysDisaggMultimodalDeciderTest {

    private final EndpointPool pool = Pools.of(1);
    private final AlwaysDisaggMultimodalDecider decider = new AlwaysDisaggMultimodalDecider(null);

    private boolean chat(String messages) {
        Cycle c = new Cycle(Requests.fromBody(ApiKind.CHAT_COMPLETIONS,
                "{\"model\":\"m\",\"messages\":" + messages + "}", Map.of()), pool.snapshot(), 0);
        return decider.disaggregate(c, pool.snapshot().get("pod-0"));
    }

    @Test
    void imagesVideoAndAudioBlocksAreMultimodal() {
        assertThat(chat("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"what is this?\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]}]")).isTrue();
        assertThat(chat("[{\"role\":\"user\",\"content\":[{\"type\":\"video_url\",\"video_url\":{\"url\":\"v\"}}]}]"))
                .isTrue();
        assertThat(chat("[{\"role\":\"user\",\"content\":[{\"type\" : \"input_audio\",\"input_audio\":{}}]}]")).isTrue();
    }

    @Test
    void textIsNotEvenWhenItMentionsImages() {
        assertThat(chat("[{\"role\":\"user\",\"content\":\"type: image_url\"}]")).isFalse();
        assertThat(chat("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"image_url\"}]}]")).isFalse();
        assertThat(chat("[{\"role\":\"user\",\"content\":\"{\\\"type\\\":\\\"image_url\\\"}\"}]")).isFalse();
        assertThat(chat("[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}]")).isFalse();
    }

    @Test
    void completionsAreNeverMultimodal() {
        Cycle c = new Cycle(Requests.completion("\"type\":\"image_url\""), pool.snapshot(), 0);
        assertThat(decider.disaggregate(c, pool.snapshot().get("pod-0"))).isFalse();
    }
}
