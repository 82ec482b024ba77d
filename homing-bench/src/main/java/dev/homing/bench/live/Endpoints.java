package dev.homing.bench.live;

import dev.homing.bench.workload.Prompt;
import java.net.URI;

/** Where a workload request goes: {@code /v1/completions} for a text prompt, {@code /v1/chat/completions} for chat. */
final class Endpoints {

    private Endpoints() {
    }

    /**
     * Where to send it: {@code base} may be a server root ({@code http://host:8000}) or end in {@code /v1}.
     */
    static URI of(URI base, Prompt prompt) {
        String root = base.toString();
        while (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        if (!root.endsWith("/v1")) {
            root += "/v1";
        }
        return URI.create(root + (prompt.isChat() ? "/chat/completions" : "/completions"));
    }
}
