package dev.homing.bench.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkedStreamEndTest {

    private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";

    private static String chunk(String data) {
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    @Test
    void endsAtTheLastChunkAfterDoneHoweverTheBytesAreSplit() {
        String whole = HEAD + chunk("data: {\"a\":1}\n\n") + chunk("data: [DONE]\n\n") + "0\r\n\r\n";
        byte[] b = whole.getBytes(StandardCharsets.ISO_8859_1);
        for (int cut = 1; cut < b.length; cut++) { // every split into two reads
            ChunkedStreamEnd end = new ChunkedStreamEnd();
            assertThat(end.accept(b, 0, cut)).as("cut at %d", cut).isFalse();
            assertThat(end.accept(b, cut, b.length - cut)).as("cut at %d", cut).isTrue();
        }
    }

    @Test
    void aDoneEventSplitOverChunksByAProxyStillEnds() {
        String whole = HEAD + chunk("data: [DO") + chunk("NE]\n\n") + "0\r\n\r\n";
        byte[] b = whole.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(new ChunkedStreamEnd().accept(b, 0, b.length)).isTrue();
    }

    @Test
    void noEndWithoutTheLastChunkNorWithoutDone() {
        byte[] open = (HEAD + chunk("data: [DONE]\n\n")).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(new ChunkedStreamEnd().accept(open, 0, open.length)).isFalse();
        byte[] cut = (HEAD + chunk("data: {\"a\":1}\n\n") + "0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(new ChunkedStreamEnd().accept(cut, 0, cut.length)).isFalse();
    }
}
