package dev.homing.router.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseModelRewriteTest {

    private static final String TARGET = "food-review-v2";
    private static final String ASKED = "food-review";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The body fed in the given pieces, all that comes out joined. */
    private static String through(String body, int... cuts) {
        ResponseModelRewrite r = ResponseModelRewrite.of(TARGET, ASKED);
        byte[] b = utf8(body);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : b.length;
            byte[] piece = r.chunk(b, from, to - from);
            out.writeBytes(piece == null ? java.util.Arrays.copyOfRange(b, from, to) : piece);
            from = to;
        }
        out.writeBytes(r.end());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void bothSpacingsAreGivenBackTheModelAsked() {
        assertEquals("{\"id\":\"x\",\"model\":\"food-review\",\"choices\":[]}",
                through("{\"id\":\"x\",\"model\":\"food-review-v2\",\"choices\":[]}"));
        assertEquals("{\"id\": \"x\", \"model\": \"food-review\"}",
                through("{\"id\": \"x\", \"model\": \"food-review-v2\"}"));
    }

    @Test
    void aPatternStraddlingChunksIsRewrittenAtEveryCut() {
        String sse = "data: {\"id\":\"1\",\"model\":\"food-review-v2\",\"choices\":[{\"text\":\"a\"}]}\n\n"
                + "data: {\"id\":\"2\", \"model\": \"food-review-v2\",\"choices\":[]}\n\ndata: [DONE]\n\n";
        String want = sse.replace("food-review-v2", "food-review");
        for (int cut = 1; cut < sse.length(); cut++) {
            assertEquals(want, through(sse, cut), "cut at " + cut);
            if (cut + 7 < sse.length()) {
                assertEquals(want, through(sse, cut, cut + 7), "cuts at " + cut + ", " + (cut + 7));
            }
        }
    }

    @Test
    void anotherModelsNameOrAPrefixIsLeftAlone() {
        String s = "{\"model\":\"food-review-v2-large\",\"text\":\"\\\"model\\\":\\\"food-review-v2\"}";
        assertEquals(s, through(s));
        assertEquals("{\"model\":\"food-review-v", through("{\"model\":\"food-review-v")); // cut short: as it was
    }

    @Test
    void aChunkWithNothingToChangeIsPassedAsItIs() {
        ResponseModelRewrite r = ResponseModelRewrite.of(TARGET, ASKED);
        byte[] b = utf8("data: {\"choices\":[{\"text\":\"hello\"}]}\n\n");
        assertNull(r.chunk(b, 0, b.length));
        assertArrayEquals(new byte[0], r.end());
    }

    @Test
    void aTailThatMayBeginAPatternWaitsForTheNextChunk() {
        ResponseModelRewrite r = ResponseModelRewrite.of(TARGET, ASKED);
        byte[] a = utf8("{\"id\":\"1\",\"mod");
        assertEquals("{\"id\":\"1\",", new String(r.chunk(a, 0, a.length), StandardCharsets.UTF_8));
        byte[] b = utf8("el\":\"food-review-v2\"}");
        assertEquals("\"model\":\"food-review\"}", new String(r.chunk(b, 0, b.length), StandardCharsets.UTF_8));
    }

    @Test
    void theSameNameNeedsNoRewrite() {
        assertNull(ResponseModelRewrite.of("m", "m"));
        assertNull(ResponseModelRewrite.of(null, "m"));
    }

    @Test
    void aWholeBody() {
        ResponseModelRewrite r = ResponseModelRewrite.of(TARGET, ASKED);
        assertEquals("{\"model\":\"food-review\"}",
                new String(r.whole(utf8("{\"model\":\"food-review-v2\"}")), StandardCharsets.UTF_8));
    }
}
