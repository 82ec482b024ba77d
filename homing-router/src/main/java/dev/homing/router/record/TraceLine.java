package dev.homing.router.record;

import java.util.Arrays;

/**
 * One line of a recorded trace, in Mooncake's format ({@code kvcache-ai/Mooncake} {@code FAST25-release/traces}) with
 * AIPerf's optional {@code session_id}: {@code {"timestamp": ms, "input_length": tokens, "output_length": tokens,
 * "hash_ids": [...], "session_id": "..."}}. Every value is a number the recorder made up or counted, and the session
 * id is a renumbered one, so the line needs no escaping and carries no text of the request.
 *
 * @param sessionId null when the request named no session
 */
record TraceLine(long timestampMs, long inputLength, long outputLength, int[] hashIds, String sessionId) {

    String toJson() {
        StringBuilder b = new StringBuilder(64 + hashIds.length * 8);
        b.append("{\"timestamp\": ").append(timestampMs)
                .append(", \"input_length\": ").append(inputLength)
                .append(", \"output_length\": ").append(outputLength)
                .append(", \"hash_ids\": [");
        for (int i = 0; i < hashIds.length; i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(hashIds[i]);
        }
        b.append(']');
        if (sessionId != null) {
            b.append(", \"session_id\": \"").append(sessionId).append('"');
        }
        return b.append("}\n").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TraceLine t && t.timestampMs == timestampMs && t.inputLength == inputLength
                && t.outputLength == outputLength && Arrays.equals(t.hashIds, hashIds)
                && java.util.Objects.equals(t.sessionId, sessionId);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hashIds) * 31 + Long.hashCode(timestampMs);
    }

    @Override
    public String toString() {
        return toJson().strip();
    }
}
