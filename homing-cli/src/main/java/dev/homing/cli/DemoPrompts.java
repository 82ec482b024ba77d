package dev.homing.cli;

/** Prompts for the demo. */
final class DemoPrompts {

    /** A realistic few-hundred-token prompt: a system-style instruction and a document to work on. */
    static final String LONG_PROMPT = """
            You are a senior site reliability engineer writing for a team that runs large language model inference \
            on Kubernetes. Answer precisely, cite the mechanism behind each claim, and keep the answer under two \
            hundred words.

            Background. Our cluster serves one model from a fleet of vLLM pods. Each pod keeps a key-value cache of \
            the attention state of recent prompts, cut into blocks of sixteen tokens. When a new request starts with \
            the same tokens as a request the pod has already served, the pod reuses those blocks and skips most of the \
            prefill computation, so the time to first token drops from seconds to milliseconds. When the request lands \
            on a pod that has never seen its prefix, the whole prompt must be computed again. A router in front of the \
            fleet can therefore save a large share of the cluster's compute by sending each request to the pod that \
            already holds its prefix, as long as that pod is not overloaded, and by spreading requests that nobody has \
            seen before evenly over the pods so that fresh cache entries do not pile up on one of them.

            Question. Our chat assistant sends a fixed system prompt of about two thousand tokens in front of every \
            conversation, and conversations grow by a few hundred tokens per turn. Explain which signals the router \
            should weigh when it places the next turn of a conversation, what goes wrong if it only looks at queue \
            depth, and what goes wrong if it only looks at cache affinity.""";

    private DemoPrompts() {
    }

    static int words(String s) {
        return s.strip().split("\\s+").length;
    }
}
