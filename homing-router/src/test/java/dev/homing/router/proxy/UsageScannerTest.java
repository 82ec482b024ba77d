package dev.homing.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class UsageScannerTest {

    private static void feedInPieces(UsageScanner s, String text, int piece) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i += piece) {
            s.accept(b, i, Math.min(piece, b.length - i));
        }
    }

    @Test
    void readsTheFinalUsageChunkOfAStreamSplitAnywhere() {
        String stream = """
                data: {"id":"cmpl-1","choices":[{"text":"a"}],"usage":null}

                data: {"id":"cmpl-1","choices":[{"text":"b"}]}

                data: {"id":"cmpl-1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14,"prompt_tokens_details":{"cached_tokens":0}}}

                data: [DONE]

                """;
        for (int piece : new int[] {1, 3, 7, 64, 10_000}) {
            UsageScanner s = new UsageScanner(true);
            feedInPieces(s, stream, piece);
            assertThat(s.usage()).as("pieces of %d", piece).isEqualTo(new Usage(12, 2, 0));
        }
    }

    @Test
    void streamWithoutUsageIsUnknown() {
        UsageScanner s = new UsageScanner(true);
        feedInPieces(s, "data: {\"choices\":[],\"usage\":null}\n\ndata: [DONE]\n\n", 5);
        assertThat(s.usage()).isEqualTo(Usage.UNKNOWN);
    }

    @Test
    void readsUsageOfAJsonBody() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "{\"choices\":[],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":20,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":288}}}", 9);
        assertThat(s.usage()).isEqualTo(new Usage(300, 20, 288));
    }

    @Test
    void missingCachedTokensMeanNoneWereCached() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "{\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":2}}", 4);
        assertThat(s.usage()).isEqualTo(new Usage(30, 2, 0));
    }

    @Test
    void garbageIsUnknownNotAnError() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "not json", 3);
        assertThat(s.usage()).isEqualTo(Usage.UNKNOWN);
    }
}
