package dev.homing.bench.policy;

import dev.homing.core.config.DefaultConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The routing policies the lab compares, by name. Homing's and llm-d's run the real scheduler ({@link DirectorPolicy})
 * with their configs; the peers are our implementations of their published algorithms with their default parameters.
 */
public final class Policies {

    public static final String ROUND_ROBIN = "round-robin";
    public static final String RANDOM = "random";
    public static final String LEAST_LOADED = "least-loaded";
    public static final String LLM_D = "llm-d";
    public static final String LLM_D_PRECISE = "llm-d-precise";
    public static final String LLM_D_ESTIMATED = "llm-d-estimated";
    public static final String HOMING = "homing";
    public static final String HOMING_PRECISE = "homing-precise";
    public static final String HOMING_REPLICAS = "homing-2-replicas";
    public static final String HOMING_REPLICAS_UNSHARED = "homing-2-replicas-unshared";
    /**
     * How long after one replica's pick the other applies it, in {@link #HOMING_REPLICAS}: above the p99 of the lag
     * measured through a real Redis on loopback ({@code homing bench replicas}, docs/BENCHMARKS.md: the writer and
     * the follower each gather 5 ms of changes), so the model errs against the replicas.
     */
    public static final long REPLICATION_LAG_NANOS = 25_000_000;
    /**
     * Homing's default with flow control as llm-d's guide tunes it "for maximum fairness/control": the
     * utilization-detector at queueDepthThreshold 1, TTL 30 s, global-strict fairness, llm-d's static usage limit.
     */
    public static final String HOMING_FLOW_STRICT = "homing-flow-strict";
    /**
     * As {@link #HOMING_FLOW_STRICT} with Homing's priority-usage-limit-policy: priorities below 10 stop at
     * {@link #TIERED_LOWER_CEILING} of the pool's saturation, so the top is kept for priority 10.
     */
    public static final String HOMING_FLOW_TIERED = "homing-flow-tiered";
    /** The tiered policy's ceiling for priorities below 10. */
    public static final double TIERED_LOWER_CEILING = 0.6;
    /** As {@link #HOMING_FLOW_STRICT} with the concurrency-detector at {@link #FLOW_MAX_CONCURRENCY} a pod instead. */
    public static final String HOMING_FLOW_CONCURRENCY = "homing-flow-concurrency";
    /**
     * The concurrency detector's requests a pod in the flow-control policies: what a Qwen3-32B TP2 pod's KV cache
     * (19,207 blocks of 16 tokens, 307k tokens) holds at 80 % for the overload workload's mean request (~1,560
     * tokens: prompt mean 1,400 + output mean 176), rounded: 0.8 x 307k / 1,560 = 158 -> 160.
     */
    public static final int FLOW_MAX_CONCURRENCY = 160;
    /** As {@link #HOMING_FLOW_STRICT}, round-robin fairness between the flows of a band. */
    public static final String HOMING_FLOW_ROUND_ROBIN = "homing-flow-round-robin";
    /** Homing's default deaf to priorities and flows: nothing is shed, every request goes to a pod. */
    public static final String HOMING_NO_ADMISSION = "homing-no-admission";
    /** The flow-control configs' TTL for a waiting request. */
    public static final String FLOW_TTL = "30s";
    public static final String SGLANG = "sglang";
    public static final String SGLANG_2025 = "sglang-2025";
    public static final String DYNAMO = "dynamo";
    public static final String AIBRIX = "aibrix";
    public static final String AIBRIX_CODE_DEFAULTS = "aibrix-code-defaults";
    public static final String AIBRIX_MAIN = "aibrix-main";
    public static final String PRODUCTION_STACK = "production-stack";

    /** The policies compared by default: every one but the extra reproduction of llm-d's "estimated" run. */
    private static final List<PolicySpec> CATALOG = List.of(
            new PolicySpec(ROUND_ROBIN, "each request to the next pod in turn"),
            new PolicySpec(RANDOM, "each request to a pod drawn at random (llm-d's random-picker run)"),
            new PolicySpec(LEAST_LOADED, "llm-d's load-only profile: queue 1 + KV-cache utilisation 1, max-score, "
                    + "scraped metrics only (the \"load\" run of llm-d's benchmarks)"),
            new PolicySpec(LLM_D, "llm-d's default (Helm): approximate prefix 3 + queue 2 + KV utilisation 2, "
                    + "max-score, no credit of load sent since the last scrape"),
            new PolicySpec(LLM_D_PRECISE, "llm-d's precise run of the 73%-capacity benchmark: prefix 3 from the pods' "
                    + "KV events + KV utilisation 2 + queue 2, max-score, no credit"),
            new PolicySpec(HOMING, "Homing's default config, load credited at the pick"),
            new PolicySpec(HOMING_PRECISE, "Homing's precise config (what homing up --precise runs), fed by KV events, "
                    + "load credited at the pick"),
            new PolicySpec(SGLANG, "SGLang/SMG cache_aware as today (smg 56ad201), CLI defaults: character-tree "
                    + "match > 0.3 -> least in-flight of the deepest node's tenants (random ties), spilled to the "
                    + "least (in-flight, processed) when over 1.5 x mean and mean + 64; else that least-loaded"),
            new PolicySpec(DYNAMO, "Dynamo KV router with its defaults: argmin 1.0 x prefill blocks + decode blocks, "
                    + "overlap from KV events, active blocks tracked by the router, ties at random"),
            new PolicySpec(AIBRIX, "AIBrix prefix-cache as deployed (code 429c45e, gateway-plugin env): 128-byte "
                    + "blocks in a 200k-block table, gap > 16 -> least-request, else best match% within mean + 2 sd "
                    + "of running requests, else least-request"),
            new PolicySpec(PRODUCTION_STACK, "vLLM production-stack prefixaware (008a23b): 128-character chunk trie, "
                    + "random among the endpoints of the longest match (any endpoint on a miss), no load term"));

    private static final List<PolicySpec> EXTRAS = List.of(
            new PolicySpec(LLM_D_ESTIMATED, "the \"estimated\" run of llm-d's 73%-capacity benchmark: approximate "
                    + "prefix 1 + KV utilisation 1 + queue 1, max-score, no credit (not llm-d's default)"),
            new PolicySpec(HOMING_REPLICAS, "two replicas of Homing's default behind a round robin, sharing their "
                    + "learned state (prefix index, newcomer order) as through --redis, each applying the other's "
                    + "picks 25 ms late (homing-2-replicas-lag-Nms: N ms late)"),
            new PolicySpec(HOMING_REPLICAS_UNSHARED, "two replicas of Homing's default behind a round robin, each "
                    + "with its own learned state"),
            new PolicySpec(SGLANG_2025, "SGLang's sgl-router cache_aware before June 2026 (b6f2064): fleet gate "
                    + "(max - min > 64 and max > 1.5 x min) -> least in-flight, else match > 0.3 -> the node's "
                    + "tenant, else the tenant with the fewest characters"),
            new PolicySpec(AIBRIX_CODE_DEFAULTS, "AIBrix prefix-cache (429c45e) with its code's fallback constants: "
                    + "4-byte blocks, gap > 8 -> least-request, mean + 1 sd"),
            new PolicySpec(HOMING_FLOW_STRICT, "Homing's default with flow control on (featureGates: [flowControl]) as"
                    + " llm-d's guide tunes it for control: utilization-detector at queueDepthThreshold 1 (KV 0.8),"
                    + " defaultRequestTTL " + FLOW_TTL + ", strict priority between bands, global-strict (oldest"
                    + " first) fairness within one, llm-d's static usage limit (1.0 for all)"),
            new PolicySpec(HOMING_FLOW_TIERED, "as homing-flow-strict with Homing's priority-usage-limit-policy:"
                    + " priorities below 10 are dispatched up to " + TIERED_LOWER_CEILING + " of pool saturation,"
                    + " 10 and above up to 1.0"),
            new PolicySpec(HOMING_FLOW_CONCURRENCY, "as homing-flow-strict with concurrency-detector maxConcurrency "
                    + FLOW_MAX_CONCURRENCY + " a pod as the saturation detector"),
            new PolicySpec(HOMING_FLOW_ROUND_ROBIN, "as homing-flow-strict with round-robin-fairness-policy between"
                    + " the flows of a band"),
            new PolicySpec(HOMING_NO_ADMISSION, "Homing's default blind to priorities and flows: no request is shed,"
                    + " every one goes to a pod (a router without admission)"),
            new PolicySpec(AIBRIX_MAIN, "AIBrix prefix-cache of current main (01de8a5) with the deployed env: "
                    + "128-byte blocks, max > 2 x (mean + 1) and gap >= 8 -> match only among the least loaded, "
                    + "mean + 2 sd"));

    /** {@link #HOMING_REPLICAS} with another replication lag, in whole milliseconds. */
    private static final Pattern LAGGED_REPLICAS = Pattern.compile(HOMING_REPLICAS + "-lag-(\\d{1,6})ms");
    private static final Pattern BLOCK_SIZE = Pattern.compile("(blockSize:\\s*)\\d+");

    private Policies() {
    }

    /** The policies the lab compares by default. */
    public static List<PolicySpec> catalog() {
        return CATALOG;
    }

    public static List<String> names() {
        return CATALOG.stream().map(PolicySpec::name).toList();
    }

    /** Policies that can be named but are not run by default. */
    public static List<PolicySpec> extras() {
        return EXTRAS;
    }

    /** Whether {@link #create} accepts this name (a catalog's, an extra's, or a lagged replicas' one). */
    public static boolean isKnown(String name) {
        return knownNames().contains(name) || LAGGED_REPLICAS.matcher(name).matches();
    }

    /** Every name {@link #create} accepts. */
    public static List<String> knownNames() {
        return Stream.concat(CATALOG.stream(), EXTRAS.stream()).map(PolicySpec::name).toList();
    }

    /**
     * A fresh policy for one run.
     *
     * @param name a policy's name, or {@code LABEL=FILE} for an {@code EndpointPickerConfig} file
     * @throws IllegalArgumentException for an unknown name, an unreadable file or an invalid config
     */
    public static Policy create(String name, PolicyContext ctx) {
        int eq = name.indexOf('=');
        if (eq >= 0) {
            return fromFile(name.substring(0, eq), name.substring(eq + 1), ctx);
        }
        Matcher lagged = LAGGED_REPLICAS.matcher(name);
        if (lagged.matches()) {
            long lag = Long.parseLong(lagged.group(1)) * 1_000_000;
            return replicas(name, new LaggedLearnedState(ctx.ticker(), 2, lag), ctx);
        }
        int pods = ctx.podCount();
        return switch (name) {
            case ROUND_ROBIN -> new RoundRobinPolicy(pods);
            case RANDOM -> new RandomPolicy(pods, new SplittableRandom(ctx.seedFor(name)));
            case LEAST_LOADED -> director(name, "llm-d-load.yaml", false, ctx);
            case LLM_D -> director(name, "llm-d-default.yaml", false, ctx);
            case LLM_D_PRECISE -> director(name, "llm-d-precise.yaml", false, ctx);
            case LLM_D_ESTIMATED -> director(name, "llm-d-estimated.yaml", false, ctx);
            case HOMING -> new DirectorPolicy(name, DefaultConfig.text(), DefaultConfig.RESOURCE, true, ctx);
            case HOMING_FLOW_STRICT -> new DirectorPolicy(name, flowControlled(false, true, false), name + ".yaml",
                    true, ctx);
            case HOMING_FLOW_ROUND_ROBIN -> new DirectorPolicy(name, flowControlled(true, true, false),
                    name + ".yaml", true, ctx);
            case HOMING_FLOW_TIERED -> new DirectorPolicy(name, flowControlled(false, true, true), name + ".yaml",
                    true, ctx);
            case HOMING_FLOW_CONCURRENCY -> new DirectorPolicy(name, flowControlled(false, false, false),
                    name + ".yaml", true, ctx);
            case HOMING_NO_ADMISSION -> new PriorityBlind(new DirectorPolicy(name, DefaultConfig.text(),
                    DefaultConfig.RESOURCE, true, ctx));
            case HOMING_PRECISE -> director(name, DefaultConfig.preciseText(), DefaultConfig.PRECISE_RESOURCE, true, ctx);
            case HOMING_REPLICAS -> replicas(name, new LaggedLearnedState(ctx.ticker(), 2, REPLICATION_LAG_NANOS), ctx);
            case HOMING_REPLICAS_UNSHARED -> replicas(name, LaggedLearnedState.unshared(ctx.ticker(), 2), ctx);
            case SGLANG -> new SglangCacheAware(pods, ctx.ticker(), new SplittableRandom(ctx.seedFor(name)));
            case SGLANG_2025 -> new Sglang2025CacheAware(pods, ctx.ticker());
            case DYNAMO -> new DynamoKvRouter(pods, ctx.blockSize(), new SplittableRandom(ctx.seedFor(name)));
            case AIBRIX -> aibrix(AibrixSettings.SHIPPED, ctx);
            case AIBRIX_CODE_DEFAULTS -> aibrix(AibrixSettings.CODE_DEFAULTS, ctx);
            case AIBRIX_MAIN -> aibrix(AibrixSettings.MAIN, ctx);
            case PRODUCTION_STACK -> new ProductionStackPrefixAware(pods, new SplittableRandom(ctx.seedFor(name)));
            default -> throw new IllegalArgumentException("unknown policy '" + name + "'; known: "
                    + String.join(", ", knownNames()));
        };
    }

    /**
     * Homing's default config with flow control and a tight saturation detector: the concurrency detector at
     * {@link #FLOW_MAX_CONCURRENCY} requests a pod, or the utilization detector's queueDepthThreshold at 1 as llm-d's
     * guide tunes it "for maximum fairness/control"; a default TTL; round-robin or global-strict fairness in every
     * band.
     */
    public static String flowControlled(boolean roundRobin, boolean utilization) {
        return flowControlled(roundRobin, utilization, false);
    }

    /**
     * @param tiered Homing's priority-usage-limit-policy ({@link #TIERED_LOWER_CEILING} below priority 10) instead of
     *               llm-d's static one
     */
    public static String flowControlled(boolean roundRobin, boolean utilization, boolean tiered) {
        String text = DefaultConfig.text();
        String detector = utilization ? "utilization-detector" : "concurrency-detector";
        String plugins = (utilization ? "- type: utilization-detector\n  parameters:\n    queueDepthThreshold: 1\n"
                : "- type: concurrency-detector\n  parameters:\n    concurrencyMode: requests\n    maxConcurrency: "
                + FLOW_MAX_CONCURRENCY + "\n")
                + (roundRobin ? "- type: round-robin-fairness-policy\n" : "")
                + (tiered ? "- type: priority-usage-limit-policy\n  parameters:\n    threshold: " + TIERED_LOWER_CEILING
                + "\n    tiers: [{minPriority: 10, threshold: 1.0}]\n" : "");
        Matcher m = Pattern.compile("(?m)^plugins:\n").matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("the default config has no plugins list");
        }
        text = text.substring(0, m.end()) + plugins + text.substring(m.end());
        String fairness = roundRobin ? "round-robin-fairness-policy" : "global-strict-fairness-policy";
        return text + (text.endsWith("\n") ? "" : "\n") + "featureGates: [flowControl]\n"
                + "saturationDetector:\n  pluginRef: " + detector + "\n"
                + "flowControl:\n  defaultRequestTTL: " + FLOW_TTL + "\n"
                + (tiered ? "  usageLimitPolicyPluginRef: priority-usage-limit-policy\n" : "")
                + "  defaultPriorityBand:\n    fairnessPolicyRef: " + fairness + "\n"
                + "  defaultNegativePriorityBand:\n    fairnessPolicyRef: " + fairness + "\n";
    }

    private static Policy aibrix(AibrixSettings settings, PolicyContext ctx) {
        return new AibrixPrefixCache(ctx.podCount(), ctx.ticker(), new SplittableRandom(ctx.seedFor(settings.name())),
                settings);
    }

    private static Policy replicas(String name, LaggedLearnedState learned, PolicyContext ctx) {
        return new ReplicasPolicy(name, DefaultConfig.text(), DefaultConfig.RESOURCE, ctx, learned, 2);
    }

    private static Policy director(String name, String resource, boolean credit, PolicyContext ctx) {
        return director(name, resource(resource), resource, credit, ctx);
    }

    private static Policy director(String name, String text, String source, boolean credit, PolicyContext ctx) {
        // A precise index keys blocks of the engines' size: follow the pods' --block-size.
        text = BLOCK_SIZE.matcher(text).replaceAll("$1" + Matcher.quoteReplacement(Integer.toString(ctx.blockSize())));
        return new DirectorPolicy(name, text, source, credit, ctx);
    }

    /**
     * {@code LABEL=FILE}: the user's own {@code EndpointPickerConfig}, run as {@code homing serve --config FILE}
     * would run it (load credited at the pick), reported as LABEL. This is how weights are tried before deploying.
     */
    private static Policy fromFile(String label, String file, PolicyContext ctx) {
        if (label.isBlank() || file.isBlank()) {
            throw new IllegalArgumentException("expected a policy as NAME or LABEL=CONFIG_FILE, got '" + label + "="
                    + file + "'");
        }
        if (knownNames().contains(label)) {
            throw new IllegalArgumentException("policy label '" + label + "' is taken by a built-in policy; "
                    + "choose another");
        }
        String text;
        try {
            text = Files.readString(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("policy " + label + ": cannot read config " + file + ": " + e);
        }
        return new DirectorPolicy(label, text, file, true, ctx);
    }

    static String resource(String name) {
        try (InputStream in = Policies.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
