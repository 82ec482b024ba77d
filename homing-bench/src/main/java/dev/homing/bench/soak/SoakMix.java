package dev.homing.bench.soak;

import dev.homing.bench.dataplane.RequestBytes;
import dev.homing.bench.workload.RequestBodies;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The soak's requests, made once from two of the bench's workloads: completions of inference-perf's shared-prefix
 * (system prompts shared by groups of questions) and chats of its multi-turn (each turn resending the conversation
 * so far), each once streamed and once not, shuffled by the seed. Request i is entry {@code i mod size}: over the
 * run every prompt goes round and round, so prefixes are shared across groups, turns and time.
 */
final class SoakMix {

    /** The model the bench's workloads name, which the soak's pods serve. */
    static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    private final List<SoakRequest> requests;

    private SoakMix(List<SoakRequest> requests) {
        this.requests = List.copyOf(requests);
    }

    static SoakMix create(long seed) {
        // lengths as mean:std_dev:min:max tokens; answers of a few dozen tokens make streams of about a second
        Workload completions = Workloads.create("shared-prefix", Map.of(
                "num_groups", "8", "num_prompts_per_group", "16", "system_prompt_len", "300:100:100:600",
                "question_len", "40:10:10:80", "output_len", "32:16:4:96", "concurrency", "1",
                "model", MODEL), seed);
        Workload chats = Workloads.create("multi-turn", Map.of(
                "num_groups", "4", "num_prompts_per_group", "8", "num_turns", "4", "system_prompt_len",
                "200:50:50:400", "question_len", "30:10:5:60", "output_len", "32:16:4:96", "concurrency", "1",
                "model", MODEL), seed);
        List<SoakRequest> all = new ArrayList<>();
        for (Workload w : List.of(completions, chats)) {
            for (WorkloadRequest r : w.requests()) {
                for (boolean stream : new boolean[] {true, false}) {
                    boolean chat = r.prompt().isChat();
                    all.add(new SoakRequest(RequestBytes.postJson(chat ? "/v1/chat/completions" : "/v1/completions",
                            RequestBodies.of(r, MODEL, false, stream)), stream, chat));
                }
            }
        }
        SplittableRandom rng = new SplittableRandom(seed);
        for (int i = all.size() - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            all.set(j, all.set(i, all.get(j)));
        }
        return new SoakMix(all);
    }

    SoakRequest get(long i) {
        return requests.get((int) Math.floorMod(i, (long) requests.size()));
    }

    int size() {
        return requests.size();
    }
}
