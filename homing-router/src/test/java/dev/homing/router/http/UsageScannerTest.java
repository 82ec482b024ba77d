package dev.homing.router.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
    void aBodyOfDeclaredLengthIsReadThroughWindowsOfItsSize() {
        String body = "{\"id\":\"resp_abc\",\"object\":\"response\",\"output\":[],\"usage\":{\"input_tokens\":31,"
                + "\"input_tokens_details\":{\"cached_tokens\":16},\"output_tokens\":5,\"total_tokens\":36}}";
        int length = body.getBytes(StandardCharsets.UTF_8).length;
        for (int piece : new int[] {1, 7, 50, length}) {
            UsageScanner s = new UsageScanner(false, null, length);
            feedInPieces(s, body, piece);
            assertThat(s.usage()).as("pieces of %d", piece).isEqualTo(new Usage(31, 5, 16));
            assertThat(s.responseId()).isEqualTo("resp_abc");
        }
        // a declared length of 0 or one longer than the windows changes nothing
        for (long declared : new long[] {0, 1 << 20}) {
            UsageScanner s = new UsageScanner(false, null, declared);
            feedInPieces(s, body, 9);
            assertThat(s.usage()).isEqualTo(new Usage(31, 5, 16));
        }
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

    @Test
    void aJsonBodysIdIsKnownFromItsFirstBytesAndToldOnce() {
        String body = "{\"id\":\"resp_0123456789abcdef\",\"created_at\":1,\"object\":\"response\",\"output\":[],"
                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":2}}";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        int idEnd = body.indexOf("\",\"created_at\"") + 1;
        for (int piece : new int[] {1, 4, idEnd}) {
            List<String> told = new ArrayList<>();
            UsageScanner s = new UsageScanner(false, told::add);
            for (int i = 0; i < idEnd; i += piece) {
                assertThat(s.responseId()).as("pieces of %d, before byte %d", piece, i).isNull();
                s.accept(b, i, Math.min(piece, idEnd - i));
            }
            // the id's closing quote has passed, the rest has not: a data plane remembers it before relaying these
            assertThat(s.responseId()).isEqualTo("resp_0123456789abcdef");
            assertThat(told).containsExactly("resp_0123456789abcdef");
            s.accept(b, idEnd, b.length - idEnd);
            assertThat(told).hasSize(1);
            assertThat(s.usage()).isEqualTo(new Usage(3, 2, 0));
        }
    }

    @Test
    void onlyAnIdThatOpensTheBodyIsRead() {
        UsageScanner s = new UsageScanner(false);
        feedInPieces(s, "{\"object\":\"response\",\"id\":\"resp_late\"}", 3);
        assertThat(s.responseId()).isNull();
        UsageScanner spaced = new UsageScanner(false);
        feedInPieces(spaced, " {\n  \"id\" : \"resp_spaced\", \"object\": \"response\"}", 2);
        assertThat(spaced.responseId()).isEqualTo("resp_spaced");
    }

    @Test
    void aStreamsIdIsToldOnceItsCreatedEventHasPassedBeforeAnythingElse() {
        String created = RESPONSES_STREAM.substring(0, RESPONSES_STREAM.indexOf("event: response.in_progress"));
        List<String> told = new ArrayList<>();
        UsageScanner s = new UsageScanner(true, told::add);
        feedInPieces(s, created.substring(0, created.length() - 3), 7);
        assertThat(told).isEmpty(); // the data line has not ended yet
        feedInPieces(s, created.substring(created.length() - 3), 7);
        assertThat(told).containsExactly("resp_s1");
        feedInPieces(s, RESPONSES_STREAM.substring(created.length()), 9);
        assertThat(told).containsExactly("resp_s1");
        assertThat(s.usage()).isEqualTo(new Usage(12, 3, 0));
    }

    @Test
    void anIncompleteOrFailedResponseReportsItsUsageToo() {
        for (String type : new String[] {"response.incomplete", "response.failed"}) {
            UsageScanner s = new UsageScanner(true);
            feedInPieces(s, "event: " + type + "\ndata: {\"response\":{\"id\":\"resp_i\",\"status\":\"incomplete\","
                    + "\"usage\":{\"input_tokens\":9,\"output_tokens\":4}},\"sequence_number\":7,\"type\":\""
                    + type + "\"}\n\n", 13);
            assertThat(s.usage()).as(type).isEqualTo(new Usage(9, 4, 0));
            assertThat(s.responseId()).isEqualTo("resp_i");
        }
    }

    @Test
    void theUsageOfABodyOfThreeMibIsReadFromItsTail() {
        // a large embeddings batch: megabytes of vectors, then usage, as vLLM writes it
        StringBuilder b = new StringBuilder("{\"id\":\"embd-1\",\"object\":\"list\",\"created\":1,\"data\":[");
        for (int i = 0; b.length() < 3 << 20; i++) {
            b.append(i == 0 ? "" : ",").append("{\"index\":").append(i)
                    .append(",\"object\":\"embedding\",\"embedding\":[0.0123,-0.0456,0.0789,\"usage\"]}");
        }
        b.append("],\"usage\":{\"prompt_tokens\":70000,\"total_tokens\":70000,\"completion_tokens\":0,"
                + "\"prompt_tokens_details\":null}}");
        String body = b.toString();
        assertThat(body.length()).isGreaterThan(3 << 20);
        for (int piece : new int[] {16 * 1024, 62_000, 1000}) {
            UsageScanner s = new UsageScanner(false);
            feedInPieces(s, body, piece);
            assertThat(s.usage()).as("pieces of %d", piece).isEqualTo(new Usage(70000, 0, 0));
            assertThat(s.responseId()).isNull(); // an embedding's id is no response's
        }
        // a piece longer than the tail, then the last few bytes: the tail keeps the order the bytes came in
        byte[] all = body.getBytes(StandardCharsets.UTF_8);
        for (int last : new int[] {1, 5, 100, 5000}) {
            UsageScanner s = new UsageScanner(false);
            s.accept(all, 0, all.length - last);
            s.accept(all, all.length - last, last);
            assertThat(s.usage()).as("the last %d bytes apart", last).isEqualTo(new Usage(70000, 0, 0));
        }
    }

    @Test
    void aTailWithoutUsageOrWithNullUsageIsUnknown() {
        UsageScanner none = new UsageScanner(false);
        feedInPieces(none, "{\"id\":\"x\",\"data\":[" + "1,".repeat(20_000) + "1]}", 4096);
        assertThat(none.usage()).isEqualTo(Usage.UNKNOWN);
        UsageScanner nul = new UsageScanner(false);
        feedInPieces(nul, "{\"id\":\"resp_n\",\"usage\":null}", 5);
        assertThat(nul.usage()).isEqualTo(Usage.UNKNOWN);
        assertThat(nul.responseId()).isEqualTo("resp_n");
    }
}
