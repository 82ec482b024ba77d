package dev.homing.router.http;

import java.nio.charset.StandardCharsets;

/**
 * The {@code "id"} a JSON body opens with, read from its first bytes: vLLM writes a response object's id as its first
 * field, so the id is known long before the body ends (a non-streamed response is a whole answer; its id must be
 * learnt before the client has it). Only that exact shape is read, {@code {"id":"..."} with any whitespace between the
 * tokens; anything else has no leading id.
 *
 * @param decided whether the bytes seen settle it (an id, or none); false while more bytes are needed
 * @param id      the id, or null
 */
record LeadingId(boolean decided, String id) {

    static final LeadingId MORE = new LeadingId(false, null);
    static final LeadingId NONE = new LeadingId(true, null);
    private static final byte[] KEY = "\"id\"".getBytes(StandardCharsets.US_ASCII);

    /**
     * @param b        the body's first bytes, {@code b[0, length)}
     * @param complete no more bytes will be added: undecided is then none
     */
    static LeadingId of(byte[] b, int length, boolean complete) {
        LeadingId r = scan(b, length);
        return r == MORE && complete ? NONE : r;
    }

    private static LeadingId scan(byte[] b, int length) {
        int i = skipSpace(b, 0, length);
        if (i >= length) {
            return MORE;
        }
        if (b[i] != '{') {
            return NONE;
        }
        i = skipSpace(b, i + 1, length);
        for (int j = 0; j < KEY.length; j++, i++) {
            if (i >= length) {
                return MORE;
            }
            if (b[i] != KEY[j]) {
                return NONE;
            }
        }
        i = skipSpace(b, i, length);
        if (i >= length) {
            return MORE;
        }
        if (b[i] != ':') {
            return NONE;
        }
        i = skipSpace(b, i + 1, length);
        if (i >= length) {
            return MORE;
        }
        if (b[i] != '"') {
            return NONE;
        }
        int start = i + 1;
        for (int j = start; j < length; j++) {
            if (b[j] == '"') {
                return new LeadingId(true, new String(b, start, j - start, StandardCharsets.UTF_8));
            }
            if (b[j] == '\\') {
                return NONE; // no id a model server makes is escaped
            }
        }
        return MORE;
    }

    static int skipSpace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }
}
