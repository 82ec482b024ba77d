package dev.homing.bench.virtual;

import dev.homing.bench.policy.Policies;
import dev.homing.protocol.config.GoDuration;
import dev.homing.sim.engine.Preset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The virtual-time experiments, by name.
 * <ul>
 *   <li>{@code llm-d-73}: llm-d's "73% capacity" benchmark (calibration.md §5): 8 Qwen3-32B pods (TP2),
 *       inference-perf shared_prefix 150 groups × 5 prompts, 6,000-token system prompts, 1,200-token questions,
 *       1,000 output tokens with ignore_eos, Poisson arrivals: 15 QPS × 50 s of warm-up (stage 0) then the ladder
 *       3 → 60 QPS (stages 1–16). With 1,000-token answers the eight pods are decode-bound near 15 QPS and every
 *       policy queues from there on; llm-d's published throughput (8,730 tok/s at 35.6 req/s) implies about 245
 *       output tokens per request, which {@code output_len=250} reproduces.</li>
 *   <li>{@code llm-d-37}: llm-d's "37% capacity" benchmark: 4 Llama-3.1-70B pods (TP4), 83 groups × 3,
 *       8,000/1,000/1,000 tokens, 9 QPS × 30 s of warm-up then 3 → 20 QPS. llm-d used constant-rate arrivals; the
 *       workload generators offer Poisson only, so these are Poisson.</li>
 *   <li>{@code quick}: a small shared-prefix run for tests, a few seconds for all policies.</li>
 *   <li>{@code suite-*} ({@link #suite()}): the workloads Homing's goals are measured on, each sized to run all
 *       policies in well under a minute on two cores and loaded past the knee of cache-blind routing: shared prefix,
 *       multi-turn chats, a burst of cold prompts, Zipf-popular groups; and {@code suite-long-context}, production-
 *       shaped long-context sessions at a comfortable then a saturated load (minutes of CPU per policy: its prompts
 *       average ~12k tokens), whose parameters are frozen.</li>
 * </ul>
 * Every scenario scrapes each pod every 50 ms and delivers KV events 5 ms after the step that made them.
 */
public final class Scenarios {

    public static final Duration SCRAPE_INTERVAL = Duration.ofMillis(50);
    public static final Duration KV_EVENT_LAG = Duration.ofMillis(5);

    /** Keys of {@link #get}'s overrides that change the scenario itself; any other key is a workload parameter. */
    public static final String PODS = "pods";
    public static final String PRESET = "preset";
    public static final String POLICIES = "policies";
    public static final String SCRAPE = "scrape_interval";
    public static final String KV_LAG = "kv_event_lag";

    private static final String QWEN = Preset.QWEN3_32B_H100_TP2.id();
    private static final String LLAMA_70B = Preset.LLAMA_3_1_70B_H100_TP4.id();

    /** llm-d's 73 % ladder after its 15 QPS × 50 s warm-up (QPS × seconds). */
    static final String LADDER_73 = "15x50,3x20,10x20,15x20,20x38,22x34,25x30,30x25,35x21,40x38,43x36,46x33,"
            + "49x30,52x29,55x27,57x26,60x25";
    /** llm-d's 37 % ladder after its 9 QPS × 30 s warm-up. */
    static final String LADDER_37 = "9x30,3x210,4x180,5x120,6x120,8x90,10x70,12x60,15x50,20x50";

    private Scenarios() {
    }

    public static List<Scenario> catalog() {
        List<Scenario> all = new ArrayList<>(List.of(llmD73(), llmD37(), quick()));
        all.addAll(suite());
        return all;
    }

    /** The workloads Homing's goals are judged on, one scenario each. */
    public static List<Scenario> suite() {
        List<String> all = Policies.names();
        return List.of(
                new Scenario("suite-shared-prefix", "shared prefix through the knee: 8 pods, 128 groups x 8 prompts, "
                        + "5,000-token system prompts, 500-token questions, 400 output tokens, 20 -> 120 QPS",
                        QWEN, 8, "shared-prefix", params(
                                "num_groups", "128", "num_prompts_per_group", "8", "system_prompt_len", "5000",
                                "question_len", "500", "output_len", "400",
                                "qps", "20x20,40x20,60x20,80x20,100x20,120x20"),
                        all, SCRAPE_INTERVAL, KV_EVENT_LAG),
                new Scenario("suite-multi-turn", "multi-turn chats: 8 pods, 32 system prompts x 8 users, 5 turns, "
                        + "2,000-token system prompts, 300-token questions, 200-token answers, 20 -> 100 QPS",
                        QWEN, 8, "multi-turn", params(
                                "num_groups", "32", "num_prompts_per_group", "8", "num_turns", "5",
                                "system_prompt_len", "2000", "question_len", "300", "output_len", "200",
                                "qps", "20x20,40x20,60x20,80x20,100x20"),
                        all, SCRAPE_INTERVAL, KV_EVENT_LAG),
                new Scenario("suite-cold-burst", "a burst of 2,000 distinct short prompts at t = 0 on 8 pods, 200 "
                        + "output tokens each (little to share: balance decides)",
                        QWEN, 8, "cold-burst", params("num_requests", "2000", "output_len", "200",
                                "ignore_eos", "true"),
                        all, SCRAPE_INTERVAL, KV_EVENT_LAG),
                new Scenario("suite-zipf", "Zipf-popular system prompts: 8 pods, 200 groups (s = 1.1), 3,000-token "
                        + "system prompts, 300-token questions, 300 output tokens, 20 -> 120 QPS",
                        QWEN, 8, "zipf", params(
                                "num_groups", "200", "zipf_s", "1.1", "system_prompt_len", "3000",
                                "question_len", "300", "output_len", "300",
                                "qps", "20x20,40x20,60x20,80x20,100x20,120x20"),
                        all, SCRAPE_INTERVAL, KV_EVENT_LAG),
                longContext(all),
                overload("suite-overload", "3", "interactive:10:1,standard:0:1,batch:-1:5"),
                overload("suite-overload-1.5x", "1.5", "interactive:10:1,standard:0:1,batch:-1:5"),
                overload("suite-overload-fairness", "3", "interactive:0:1,standard:0:1,batch:0:5"));
    }

    /** The policies of the overload scenarios: flow control (two fairness policies), legacy admission, none. */
    static final List<String> OVERLOAD_POLICIES = List.of(Policies.HOMING_FLOW_TIERED, Policies.HOMING_FLOW_STRICT,
            Policies.HOMING_FLOW_ROUND_ROBIN, Policies.HOMING_FLOW_CONCURRENCY, Policies.HOMING,
            Policies.HOMING_NO_ADMISSION);

    /**
     * {@code suite-overload*}: the {@code overload} workload (issue 17) on 8 Qwen3-32B pods for 60 s of Poisson
     * arrivals at {@code load} times the fleet's measured capacity, three flows, the batch flow at 5 times the others'
     * rate; {@code suite-overload-fairness} puts the three flows in one band so the fairness policies differ.
     */
    static Scenario overload(String name, String load, String flows) {
        return new Scenario(name, "overload: 8 pods, flows " + flows + " (id:priority:relative rate), Poisson at "
                + load + "x the fleet's capacity for 60 s, unique prompts (lognormal, medians 1,020 / 129 tokens)",
                QWEN, 8, "overload", params("flows", flows, "load", load, "duration", "60"),
                OVERLOAD_POLICIES, SCRAPE_INTERVAL, KV_EVENT_LAG);
    }

    /**
     * {@code suite-long-context}: the {@code long-context} workload with its defaults, FROZEN (docs/BENCHMARKS.md,
     * "The long-context workload"): policy work must not tune them. 8 Llama-3.1-70B pods (TP4; the preset's 131,072
     * context takes the 128k prompts, 461k KV tokens a pod), two stages: 30 minutes at a comfortable load (round
     * robin's queues stay under one request a pod), then 15 minutes at a saturated one (round robin's queues grow
     * through the stage), each long enough for the pods' caches to turn over many times.
     */
    static Scenario longContext(List<String> policies) {
        return new Scenario("suite-long-context", "long-context sessions after production traces: 8 x Llama-3.1-70B "
                + "(TP4), lognormal prompts (mean ~12k, up to 128k), growing sessions, recurring contexts, bursty "
                + "arrivals; " + LONG_CONTEXT_LOADS + " (comfortable, then saturated)",
                LLAMA_70B, 8, "long-context", params("qps", LONG_CONTEXT_LOADS,
                        "model", Preset.LLAMA_3_1_70B_H100_TP4.modelName()),
                policies, SCRAPE_INTERVAL, KV_EVENT_LAG);
    }

    /** suite-long-context's two stages, requests/s x seconds. Frozen. */
    static final String LONG_CONTEXT_LOADS = "3x1800,7x900";

    /**
     * A scenario by name, with overrides: {@code pods}, {@code preset}, {@code policies} (comma-separated),
     * {@code scrape_interval} and {@code kv_event_lag} (e.g. {@code 50ms}, {@code 1s}) change the scenario; any other
     * key replaces or adds a workload parameter (checked when the workload is made).
     *
     * @throws IllegalArgumentException for an unknown scenario, policy or preset, or a bad value
     */
    public static Scenario get(String name, Map<String, String> overrides) {
        Scenario s = catalog().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario '" + name + "'; known: "
                        + String.join(", ", catalog().stream().map(Scenario::name).toList())));
        String preset = s.preset();
        int pods = s.pods();
        List<String> policies = s.policies();
        Duration scrape = s.scrapeInterval();
        Duration lag = s.kvEventLag();
        Map<String, String> params = new LinkedHashMap<>(s.workloadParameters());
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            String v = e.getValue() == null ? "" : e.getValue().trim();
            switch (e.getKey()) {
                case PODS -> pods = positive(PODS, v);
                case PRESET -> preset = Preset.byName(v).id();
                case POLICIES -> policies = policies(v);
                case SCRAPE -> scrape = duration(SCRAPE, v);
                case KV_LAG -> lag = duration(KV_LAG, v);
                default -> params.put(e.getKey(), v);
            }
        }
        if (!preset.equals(s.preset()) && !overrides.containsKey("model")) {
            params.put("model", Preset.byName(preset).modelName());
        }
        return new Scenario(s.name(), s.description(), preset, pods, s.workload(), params, policies, scrape, lag);
    }

    private static Scenario llmD73() {
        return new Scenario("llm-d-73", "llm-d's 73%-capacity benchmark: 8 x Qwen3-32B (TP2), shared prefix "
                + "150 x 5, 6000/1200/1000 tokens, Poisson, 15 QPS x 50 s warm-up then 3 -> 60 QPS",
                QWEN, 8, "shared-prefix", params(
                        "num_groups", "150", "num_prompts_per_group", "5", "system_prompt_len", "6000",
                        "question_len", "1200", "output_len", "1000", "ignore_eos", "true", "qps", LADDER_73,
                        "model", Preset.QWEN3_32B_H100_TP2.modelName()),
                Policies.names(), SCRAPE_INTERVAL, KV_EVENT_LAG);
    }

    private static Scenario llmD37() {
        return new Scenario("llm-d-37", "llm-d's 37%-capacity benchmark: 4 x Llama-3.1-70B (TP4), shared prefix "
                + "83 x 3, 8000/1000/1000 tokens, 9 QPS x 30 s warm-up then 3 -> 20 QPS (Poisson; llm-d's was "
                + "constant-rate)",
                LLAMA_70B, 4, "shared-prefix", params(
                        "num_groups", "83", "num_prompts_per_group", "3", "system_prompt_len", "8000",
                        "question_len", "1000", "output_len", "1000", "ignore_eos", "true", "qps", LADDER_37,
                        "model", Preset.LLAMA_3_1_70B_H100_TP4.modelName()),
                Policies.names(), SCRAPE_INTERVAL, KV_EVENT_LAG);
    }

    private static Scenario quick() {
        return new Scenario("quick", "a small shared-prefix run: 4 x Qwen3-32B, 12 groups x 4, 1,500/200/40 "
                + "tokens, 6 -> 14 QPS for 20 s",
                QWEN, 4, "shared-prefix", params(
                        "num_groups", "12", "num_prompts_per_group", "4", "system_prompt_len", "1500",
                        "question_len", "200", "output_len", "40", "qps", "6x10,14x10",
                        "model", Preset.QWEN3_32B_H100_TP2.modelName()),
                Policies.names(), SCRAPE_INTERVAL, KV_EVENT_LAG);
    }

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        if (!m.containsKey("model")) {
            m.put("model", Preset.QWEN3_32B_H100_TP2.modelName());
        }
        return m;
    }

    private static List<String> policies(String v) {
        List<String> names = Arrays.stream(v.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
        if (names.isEmpty()) {
            throw new IllegalArgumentException("policies: name at least one of " + String.join(", ",
                    Policies.knownNames()));
        }
        for (String n : names) {
            // LABEL=FILE (a user's config) is checked when the policy is made, before any run starts
            if (n.indexOf('=') < 0 && !Policies.isKnown(n)) {
                throw new IllegalArgumentException("unknown policy '" + n + "'; known: "
                        + String.join(", ", Policies.knownNames()));
            }
        }
        return names;
    }

    private static int positive(String key, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + ": bad value '" + v + "', expected a whole number >= 1");
    }

    /** Go-style durations as the rest of Homing reads them: {@code 50ms}, {@code 1.5s}, {@code 1m30s}. */
    static Duration duration(String key, String v) {
        try {
            Duration d = GoDuration.parse(v);
            if (!d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // reported below, naming the key
        }
        throw new IllegalArgumentException(key + ": bad value '" + v + "', expected a duration such as 50ms or 1s");
    }
}
