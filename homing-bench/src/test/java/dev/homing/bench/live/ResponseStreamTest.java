package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ResponseStreamTest {

    private final AtomicLong clock = new AtomicLong(100);
    private final ResponseStream stream = new ResponseStream(clock::get);

    @Test
    void aCompletionStreamsTextThenUsage() {
        stream.line("");
        clock.set(200);
        stream.line("data: {\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":null}],\"usage\":null}");
        clock.set(300);
        stream.line("data: {\"choices\":[{\"index\":0,\"text\":\" Hello\",\"finish_reason\":null}],\"usage\":null}");
        clock.set(400);
        stream.line("data: {\"choices\":[{\"index\":0,\"text\":\" world\",\"finish_reason\":\"length\"}]}");
        stream.line("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":2,"
                + "\"total_tokens\":42,\"prompt_tokens_details\":{\"cached_tokens\":32}}}");
        stream.line("data: [DONE]");
        ResponseStream.Snapshot s = stream.snapshot();
        assertThat(s.firstTextNanos()).as("the first event with text, not the empty one").isEqualTo(300);
        assertThat(s.textEvents()).isEqualTo(2);
        assertThat(s.promptTokens()).isEqualTo(40);
        assertThat(s.completionTokens()).isEqualTo(2);
        assertThat(s.cachedTokens()).isEqualTo(32);
        assertThat(s.usageSeen()).isTrue();
        assertThat(s.cachedSeen()).isTrue();
        assertThat(s.errorStatus()).isZero();
    }

    @Test
    void aChatsRoleEventIsNotTheFirstToken() {
        clock.set(500);
        stream.line("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");
        clock.set(700);
        stream.line("data:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}");
        stream.line("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}");
        ResponseStream.Snapshot s = stream.snapshot();
        assertThat(s.firstTextNanos()).isEqualTo(700);
        assertThat(s.completionTokens()).isEqualTo(1);
        assertThat(s.usageSeen()).isTrue();
        assertThat(s.cachedSeen()).as("vLLM leaves cached_tokens out when none were cached").isFalse();
    }

    @Test
    void anErrorEventAfterTheHeadersIsAFailure() {
        stream.line("data: {\"error\":{\"object\":\"error\",\"message\":\"boom\",\"type\":\"BadRequestError\","
                + "\"code\":400}}");
        assertThat(stream.snapshot().errorStatus()).isEqualTo(400);
        ResponseStream other = new ResponseStream(clock::get);
        other.line("data: {\"error\":{\"message\":\"engine died\"}}");
        assertThat(other.snapshot().errorStatus()).isEqualTo(500);
    }

    @Test
    void whatIsNotAnEventIsIgnored() {
        stream.line(": keep-alive");
        stream.line("event: message");
        stream.line("data: not json");
        stream.line("{\"error\":{\"message\":\"a non-streamed error body\",\"code\":429}}");
        ResponseStream.Snapshot s = stream.snapshot();
        assertThat(s.firstTextNanos()).isEqualTo(-1);
        assertThat(s.usageSeen()).isFalse();
        assertThat(s.errorStatus()).isZero();
        assertThat(s.promptTokens()).isEqualTo(-1);
    }
}
