package dev.homing.bench.workload;

import java.nio.charset.StandardCharsets;

/**
 * The OpenAI body a client would send for a workload request, as inference-perf sends them: streaming with usage, a
 * completion's {@code prompt} (text, or token ids when the workload says so) or a chat's {@code messages},
 * {@code max_tokens}, and {@code ignore_eos} (a vLLM extension) when set. The live driver sends it; the virtual
 * runner builds it at the request's arrival for the router's own parser, so the scheduler sees what it sees in
 * production.
 */
public final class RequestBodies {

    private RequestBodies() {
    }

    /** @param tokenIdPrompts send a text prompt as its token ids (traces that give ids are the model's own tokens) */
    public static byte[] of(WorkloadRequest r, String model, boolean tokenIdPrompts) {
        return of(r, model, tokenIdPrompts, true);
    }

    /**
     * @param stream streamed with usage, as above; false for the whole answer in one response, as a client that
     *               does not stream asks for it (no {@code stream}, no {@code stream_options})
     */
    public static byte[] of(WorkloadRequest r, String model, boolean tokenIdPrompts, boolean stream) {
        Prompt p = r.prompt();
        StringBuilder b = new StringBuilder(estimate(p));
        b.append("{\"model\":");
        quote(b, model);
        if (p.isChat()) {
            b.append(",\"messages\":[");
            for (int i = 0; i < p.messages().size(); i++) {
                Prompt.Message m = p.messages().get(i);
                b.append(i == 0 ? "{\"role\":" : ",{\"role\":");
                quote(b, m.role());
                b.append(",\"content\":");
                quote(b, m.content() == null ? "" : m.content());
                b.append('}');
            }
            b.append(']');
        } else if (tokenIdPrompts && p.tokens() != null) {
            b.append(",\"prompt\":[");
            int[] t = p.tokens();
            for (int i = 0; i < t.length; i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(t[i]);
            }
            b.append(']');
        } else {
            b.append(",\"prompt\":");
            quote(b, p.text());
        }
        b.append(",\"max_tokens\":").append(r.maxTokens());
        if (stream) {
            b.append(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
        }
        if (r.ignoreEos()) {
            b.append(",\"ignore_eos\":true");
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int estimate(Prompt p) {
        int n = 160;
        if (p.isChat()) {
            for (Prompt.Message m : p.messages()) {
                n += 32 + (m.content() == null ? 0 : m.content().length());
            }
        } else if (p.text() != null) {
            n += p.text().length();
        }
        return n + n / 16;
    }

    /** Appends {@code s} as a JSON string, copying the runs between characters that need escaping whole. */
    private static void quote(StringBuilder b, String s) {
        b.append('"');
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            b.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        b.append(s, run, s.length()).append('"');
    }
}
