package dev.homing.router.http;

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

    @Test
    void readsTheResponsesApiUsageAndIdOfAJsonBody() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "{\"id\":\"resp_abc\",\"object\":\"response\",\"output\":[],\"usage\":{\"input_tokens\":31,"
                + "\"input_tokens_details\":{\"cached_tokens\":16},\"output_tokens\":5,\"total_tokens\":36}}", 7);
        assertThat(s.usage()).isEqualTo(new Usage(31, 5, 16));
        assertThat(s.responseId()).isEqualTo("resp_abc");
    }

    @Test
    void onlyAResponsesApiResponseHasAResponseId() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"usage\":{\"prompt_tokens\":1}}", 5);
        assertThat(s.responseId()).isNull();
        UsageScanner error = new UsageScanner(false);
        feedInPieces(error, "{\"error\":{\"message\":\"Response with id 'resp_x' not found.\",\"code\":404}}", 5);
        assertThat(error.responseId()).isNull();
        assertThat(error.usage()).isEqualTo(Usage.UNKNOWN);
    }

    private static final String RESPONSES_STREAM = """
            event: response.created
            data: {"response":{"id":"resp_s1","object":"response","status":"in_progress","output":[],"usage":null},"sequence_number":0,"type":"response.created"}

            event: response.in_progress
            data: {"response":{"id":"resp_s1","object":"response","status":"in_progress","usage":null},"sequence_number":1,"type":"response.in_progress"}

            event: response.output_text.delta
            data: {"content_index":0,"delta":"the \\"usage\\" word","item_id":"msg_1","output_index":0,"sequence_number":2,"type":"response.output_text.delta"}

            event: response.completed
            data: {"response":{"id":"resp_s1","object":"response","status":"completed","usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":0},"output_tokens":3,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":15}},"sequence_number":3,"type":"response.completed"}

            """;

    @Test
    void readsTheResponsesApiStreamSplitAnywhere() {
        for (int piece : new int[] {1, 5, 33, 10_000}) {
            UsageScanner s = new UsageScanner(true);
            feedInPieces(s, RESPONSES_STREAM, piece);
            assertThat(s.usage()).as("pieces of %d", piece).isEqualTo(new Usage(12, 3, 0));
            assertThat(s.responseId()).isEqualTo("resp_s1");
        }
    }

    @Test
    void aStreamCutBeforeItCompletedStillNamesItsResponse() {
        UsageScanner s = new UsageScanner(true);
        String cut = RESPONSES_STREAM.substring(0, RESPONSES_STREAM.indexOf("event: response.completed"));
        feedInPieces(s, cut, 11);
        assertThat(s.responseId()).isEqualTo("resp_s1");
        assertThat(s.usage()).isEqualTo(Usage.UNKNOWN);
    }
}
