package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The workload generators by name, and what parameters each takes.
 *
 * <p>Parameter syntax: lengths are {@code N} or {@code mean:std_dev:min:max} (normal, clipped, rounded, as
 * inference-perf draws them); {@code qps} is a single rate (with {@code duration} seconds) or a ladder
 * {@code QPSxSECONDS,...} such as {@code 3x20,10x20}; {@code concurrency} instead makes a closed loop. The same name,
 * parameters and seed always make the same workload; prompts come from their own stream of the seed, so changing the
 * arrival parameters leaves the prompts as they were.
 */
public final class Workloads {

    /** Key of {@link Workload#parameters()} that says how prompts go on the wire; {@code token_ids} or absent. */
    public static final String PROMPTS_AS = "prompts_as";
    /** Key of {@link Workload#parameters()} naming the arrival process (poisson, closed-loop, burst, timestamps). */
    public static final String ARRIVAL = "arrival";

    private static final String DEFAULT_MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    private Workloads() {
    }

    public static List<WorkloadSpec> catalog() {
        return List.of(
                spec("shared-prefix", "inference-perf's shared_prefix: groups of prompts sharing a system prompt,"
                        + " all built first, shuffled once, and sent round-robin as completions",
                        SharedPrefix.PARAMETERS, "5", "60", "true",
                        "closed loop: requests to send (default one pass, num_groups x num_prompts_per_group);"
                                + " with qps, a cap"),
                spec("multi-turn", "chats whose turns extend the conversation (earlier questions, assistant replies"
                        + " of output_len tokens, a new question); a turn waits for the previous turn's answer",
                        MultiTurn.PARAMETERS, "5", "60", "true",
                        "closed loop: requests to send (default every user's num_turns turns); with qps, a cap"),
                spec("cold-burst", "the reference demo: unique prompts 'Write one sentence about topic number i in"
                        + " cloud computing.', all at t = 0 unless qps or concurrency is given",
                        ColdBurst.PARAMETERS, "", "60", "false", "requests to send (default 30)"),
                spec("zipf", "system prompts with Zipf-skewed popularity, a fresh question per request",
                        ZipfGroups.PARAMETERS, "5", "60", "true",
                        "closed loop: requests to send (default 1000); with qps, a cap"),
                spec("long-context", "long-context chat sessions shaped after production traces: lognormal"
                        + " prompt lengths up to the model's context (Mooncake), contexts growing turn by turn with"
                        + " think times, shared documents of Zipf popularity, Gamma (bursty) session arrivals;"
                        + " qps is the offered request rate", LongContext.PARAMETERS, "2", "300", "true",
                        "a cap on the requests sent (default all the sessions' turns)"),
                spec("overload", "flows of different priority (fairness ids, priorities, relative rates) offered a"
                        + " multiple of the fleet's capacity: by default interactive at 10, standard at 0, batch at -1"
                        + " with 5x their rate, 3x capacity; unique prompts, lengths after the Azure 2023 conversation"
                        + " trace (lognormal, medians 1,020 / 129 tokens)", Overload.PARAMETERS, "", "60", "true",
                        "closed loop: requests to send (default 1000); with qps, a cap"),
                spec("trace", "replay of a JSON-lines trace: timestamp (ms), model, prompt | messages |"
                        + " prompt_token_ids | token_ids, max_tokens; or Mooncake's timestamp, input_length,"
                        + " output_length, hash_ids; with session_id (and AIPerf's delay, ms) a session's turn is"
                        + " sent only after its previous turn's answer, plus the recorded gap",
                        TraceReplay.PARAMETERS, "", "", "true",
                        "the first records to send (default all)"));
    }

    /**
     * Makes a workload.
     *
     * @param seed used unless the parameters give {@code seed}
     * @throws IllegalArgumentException for an unknown workload or parameter, or a bad value, naming it
     */
    public static Workload create(String name, Map<String, String> parameters, long seed) {
        WorkloadSpec spec = catalog().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name + "'; known: "
                        + String.join(", ", catalog().stream().map(WorkloadSpec::name).toList())));
        Parameters p = new Parameters(spec, parameters);
        if (name.equals("overload") && !p.isGiven(Arrivals.QPS) && !p.isGiven(Arrivals.CONCURRENCY)) {
            Map<String, String> withRate = new LinkedHashMap<>(parameters);
            withRate.put(Arrivals.QPS, Overload.rate(p)); // load x capacity_qps
            Parameters given = p;
            p = new Parameters(spec, withRate);
            p.note(Overload.LOAD, given.decimal(Overload.LOAD, 0, true));
            p.note(Overload.CAPACITY_QPS, given.decimal(Overload.CAPACITY_QPS, 0, true));
        }
        long effectiveSeed = p.isGiven("seed") ? p.longInteger("seed") : seed;
        p.note("seed", effectiveSeed);
        SplittableRandom root = new SplittableRandom(effectiveSeed);
        RandomGenerator contentRng = root.split();
        RandomGenerator arrivalRng = root.split();
        if (name.equals("long-context")) {
            return LongContext.create(name, p, contentRng, arrivalRng);
        }
        TraceReplay trace = null;
        ContentSource source = switch (name) {
            case "shared-prefix" -> new SharedPrefix(p, contentRng);
            case "multi-turn" -> new MultiTurn(p, contentRng);
            case "cold-burst" -> new ColdBurst(p);
            case "zipf" -> new ZipfGroups(p, contentRng);
            case "overload" -> new Overload(p, contentRng);
            case "trace" -> trace = new TraceReplay(p, effectiveSeed);
            default -> throw new IllegalStateException("no generator for " + name);
        };
        String model = p.string("model");
        boolean ignoreEos = p.bool("ignore_eos");
        Arrivals arrivals = Arrivals.plan(p, source, arrivalRng, trace);
        p.note(ARRIVAL, arrivals.mode());
        if (trace != null && trace.tokenIdPrompts()) {
            p.note(PROMPTS_AS, "token_ids");
        }
        List<WorkloadRequest> requests = new ArrayList<>(arrivals.count());
        for (int i = 0; i < arrivals.count(); i++) {
            RequestContent c = source.next(i);
            requests.add(new WorkloadRequest(name + "-" + i, arrivals.nanos()[i], arrivals.stages()[i],
                    c.model() != null ? c.model() : model, c.prompt(), c.maxTokens(), ignoreEos, c.group(),
                    c.conversation(), c.turn(), c.gapNanos(), c.flow(), c.priority()));
        }
        return new Workload(name, requests, arrivals.stageQps(), arrivals.concurrency(), p.used());
    }

    private static WorkloadSpec spec(String name, String description, List<WorkloadSpec.Parameter> own,
            String qpsDefault, String durationDefault, String ignoreEosDefault, String countDescription) {
        Map<String, WorkloadSpec.Parameter> all = new LinkedHashMap<>();
        own.forEach(p -> all.put(p.name(), p));
        List.of(
                new WorkloadSpec.Parameter(Arrivals.QPS, qpsDefault, "Poisson arrivals: a rate (with duration) or"
                        + " a ladder QPSxSECONDS,... e.g. 3x20,10x20" + (qpsDefault.isEmpty() ? "" : "; not with"
                        + " concurrency")),
                new WorkloadSpec.Parameter(Arrivals.DURATION, durationDefault, name.equals("trace")
                        ? "seconds of the trace to replay, or of a single qps" : "seconds a single qps lasts"),
                new WorkloadSpec.Parameter(Arrivals.CONCURRENCY, "", "closed loop: requests kept in flight"),
                new WorkloadSpec.Parameter(Arrivals.NUM_REQUESTS, "", countDescription),
                new WorkloadSpec.Parameter("model", DEFAULT_MODEL, name.equals("trace")
                        ? "model of records that name none" : "model named in each request"),
                new WorkloadSpec.Parameter("ignore_eos", ignoreEosDefault, "send ignore_eos so every request"
                        + " generates its max_tokens"),
                new WorkloadSpec.Parameter("seed", "", "overrides the run's seed for this workload"))
                .forEach(p -> all.putIfAbsent(p.name(), p));
        return new WorkloadSpec(name, description, List.copyOf(all.values()));
    }
}
