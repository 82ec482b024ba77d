package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.bench.workload.Prompt;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointsTest {

    private static final Prompt TEXT = Prompt.text(" the of", new int[] {256, 257});
    private static final Prompt CHAT = Prompt.chat(List.of(new Prompt.Message("user", "u")), new int[] {1});

    @Test
    void completionsOrChatUnderTheBaseWithOrWithoutV1() {
        assertThat(Endpoints.of(URI.create("http://h:8000"), TEXT))
                .isEqualTo(URI.create("http://h:8000/v1/completions"));
        assertThat(Endpoints.of(URI.create("http://h:8000/"), CHAT))
                .isEqualTo(URI.create("http://h:8000/v1/chat/completions"));
        assertThat(Endpoints.of(URI.create("https://h/api/v1/"), TEXT))
                .isEqualTo(URI.create("https://h/api/v1/completions"));
    }
}
