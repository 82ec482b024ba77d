package dev.homing.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.core.director.ResponseAffinity;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.protocol.metrics.VllmMetrics;
import dev.homing.router.metrics.RouterMetrics;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/homing-dashboard.json names only metrics that Homing exports (read from what RouterMetrics writes on
 * /metrics, every part of it in use, with the types its {@code # TYPE} lines give) or that vLLM exports (homing-protocol's
 * VllmMetrics, each with its type in vLLM: vllm-project/vllm {@code docs/source/design/v1/metrics.md}; as exposed,
 * a counter with {@code _total}, a histogram as {@code _bucket}, {@code _sum}, {@code _count}); renaming one breaks
 * this test. Each function is given what it takes: {@code rate}, {@code irate} and {@code increase} a counter or a
 * histogram's series, {@code histogram_quantile} a histogram's {@code _bucket}. And it has the panels the issue asks for: requests, TTFT, decisions, prefix hit ratio, per-pod load; vLLM queue, KV usage,
 * prefix-cache hits.
 */
class GrafanaDashboardTest {

    /** A PromQL metric name, not followed by '(' (a function) and not a keyword. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset");

    static JsonNode dashboard;

    @BeforeAll
    static void load() throws Exception {
        dashboard = new ObjectMapper().readTree(DeployFiles.deploy().resolve("grafana/homing-dashboard.json").toFile());
    }

    /** What a series is, for the functions that may take it. */
    enum Kind { GAUGE, COUNTER, BUCKET, HISTOGRAM_SUM_OR_COUNT }

    /** vLLM's type for each of VllmMetrics' names (docs/source/design/v1/metrics.md; an info is a gauge of 1). */
    static final Map<String, String> VLLM_TYPES = Map.ofEntries(
            Map.entry(VllmMetrics.NUM_REQUESTS_RUNNING, "gauge"),
            Map.entry(VllmMetrics.NUM_REQUESTS_WAITING, "gauge"),
            Map.entry(VllmMetrics.KV_CACHE_USAGE_PERC, "gauge"),
            Map.entry(VllmMetrics.GPU_CACHE_USAGE_PERC, "gauge"),
            Map.entry(VllmMetrics.PREFIX_CACHE_QUERIES, "counter"),
            Map.entry(VllmMetrics.PREFIX_CACHE_HITS, "counter"),
            Map.entry(VllmMetrics.PROMPT_TOKENS, "counter"),
            Map.entry(VllmMetrics.GENERATION_TOKENS, "counter"),
            Map.entry(VllmMetrics.NUM_PREEMPTIONS, "counter"),
            Map.entry(VllmMetrics.REQUEST_SUCCESS, "counter"),
            Map.entry(VllmMetrics.TIME_TO_FIRST_TOKEN, "histogram"),
            Map.entry(VllmMetrics.TIME_PER_OUTPUT_TOKEN, "histogram"),
            Map.entry(VllmMetrics.INTER_TOKEN_LATENCY, "histogram"),
            Map.entry(VllmMetrics.REQUEST_TIME_PER_OUTPUT_TOKEN, "histogram"),
            Map.entry(VllmMetrics.E2E_REQUEST_LATENCY, "histogram"),
            Map.entry(VllmMetrics.REQUEST_QUEUE_TIME, "histogram"),
            Map.entry(VllmMetrics.REQUEST_INFERENCE_TIME, "histogram"),
            Map.entry(VllmMetrics.REQUEST_PREFILL_TIME, "histogram"),
            Map.entry(VllmMetrics.REQUEST_DECODE_TIME, "histogram"),
            Map.entry(VllmMetrics.REQUEST_PROMPT_TOKENS, "histogram"),
            Map.entry(VllmMetrics.REQUEST_GENERATION_TOKENS, "histogram"),
            Map.entry(VllmMetrics.REQUEST_PARAMS_MAX_TOKENS, "histogram"),
            Map.entry(VllmMetrics.REQUEST_PARAMS_N, "histogram"),
            Map.entry(VllmMetrics.REQUEST_MAX_NUM_GENERATION_TOKENS, "histogram"),
            Map.entry(VllmMetrics.ITERATION_TOKENS, "histogram"),
            Map.entry(VllmMetrics.LORA_REQUESTS_INFO, "gauge"),
            Map.entry(VllmMetrics.CACHE_CONFIG_INFO, "gauge"));

    @Test
    void everyMetricNamedIsOneHomingOrVllmExports() throws Exception {
        Map<String, Kind> exported = exported();
        Set<String> named = namedMetrics();
        assertThat(named).isNotEmpty();
        assertThat(named).allSatisfy(n -> assertThat(exported).as("exported metrics").containsKey(n));
    }

    @Test
    void everyFunctionIsGivenASeriesOfATypeItTakes() throws Exception {
        Map<String, Kind> exported = exported();
        List<String> exprs = new ArrayList<>();
        collect(dashboard, exprs);
        assertThat(exprs).allSatisfy(e -> assertThat(misuses(e, exported)).as(e).isEmpty());
    }

    @Test
    void theTypeCheckCatchesARateOfAGaugeAndAQuantileOfACounter() throws Exception {
        Map<String, Kind> exported = exported();
        assertThat(misuses("sum(rate(vllm:num_requests_waiting[5m]))", exported)).isNotEmpty();
        assertThat(misuses("histogram_quantile(0.9, sum by (le) (rate(vllm:prompt_tokens_total[5m])))", exported))
                .isNotEmpty();
        assertThat(misuses("rate(vllm:time_to_first_token_seconds_sum[5m])", exported)).isEmpty();
        assertThat(misuses("histogram_quantile(0.9, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket[5m])))",
                exported)).isEmpty();
        // every vLLM name with every suffix is not a series vLLM writes
        assertThat(exported).doesNotContainKeys(VllmMetrics.NUM_REQUESTS_WAITING + "_bucket",
                VllmMetrics.TIME_TO_FIRST_TOKEN + "_total", VllmMetrics.PREFIX_CACHE_HITS);
    }

    private static final Pattern RATE = Pattern.compile("\\b(rate|irate|increase)\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");

    /** What in {@code expr} gives a function a series of a type it does not take. */
    static List<String> misuses(String expr, Map<String, Kind> exported) {
        List<String> out = new ArrayList<>();
        Matcher m = RATE.matcher(expr);
        while (m.find()) {
            Kind k = exported.get(m.group(2));
            if (k == null || k == Kind.GAUGE) {
                out.add(m.group(1) + "() of " + m.group(2) + " (" + k + ")");
            }
        }
        for (int at = expr.indexOf("histogram_quantile("); at >= 0; at = expr.indexOf("histogram_quantile(", at + 1)) {
            int open = at + "histogram_quantile".length();
            int depth = 0;
            int close = open;
            for (; close < expr.length(); close++) {
                char c = expr.charAt(close);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
            }
            for (String n : names(expr.substring(open, Math.min(close + 1, expr.length())))) {
                if (exported.get(n) != Kind.BUCKET) {
                    out.add("histogram_quantile() of " + n + " (" + exported.get(n) + ")");
                }
            }
        }
        return out;
    }

    /** Every series Homing or vLLM writes, with what it is. */
    static Map<String, Kind> exported() throws Exception {
        Map<String, Kind> out = new TreeMap<>(homingExports());
        out.putAll(vllmExports());
        return out;
    }

    @Test
    void itShowsWhatTheIssueAsksFor() {
        assertThat(namedMetrics()).contains(
                "inference_objective_request_total",                     // requests
                "inference_objective_request_ttft_seconds_bucket",       // TTFT
                "inference_extension_scheduler_attempts_total",          // decisions
                "inference_extension_prefix_indexer_hit_ratio",          // prefix hit ratio
                "homing_endpoint_in_flight_requests",                    // per-pod load
                "homing_endpoint_in_flight_tokens",
                VllmMetrics.NUM_REQUESTS_WAITING,                        // vLLM queue
                VllmMetrics.KV_CACHE_USAGE_PERC,                         // KV usage
                VllmMetrics.total(VllmMetrics.PREFIX_CACHE_HITS),        // prefix-cache hits
                VllmMetrics.total(VllmMetrics.PREFIX_CACHE_QUERIES));
    }

    @Test
    void theNameExtractionSeesMetricsOnlyNotFunctionsLabelsOrRanges() {
        assertThat(names("histogram_quantile(0.99, sum by (le) (rate(a_bucket{job=~\"$job\", b=\"c d\"}[$__rate_interval])))"
                + " / on (pod) vllm:x_total offset 5m"))
                .containsExactlyInAnyOrder("a_bucket", "vllm:x_total");
        assertThat(names("label_values(inference_extension_info, job)")).containsExactly("inference_extension_info");
    }

    /** The metric names of every panel's queries and of the template variables' queries. */
    static Set<String> namedMetrics() {
        Set<String> out = new TreeSet<>();
        List<String> exprs = new ArrayList<>();
        collect(dashboard, exprs);
        exprs.forEach(e -> out.addAll(names(e)));
        return out;
    }

    private static void collect(JsonNode n, List<String> exprs) {
        if (n.isObject()) {
            n.fields().forEachRemaining(f -> {
                if ((f.getKey().equals("expr") || f.getKey().equals("definition") || f.getKey().equals("query"))
                        && f.getValue().isTextual() && !f.getValue().asText().equals("prometheus")) {
                    exprs.add(f.getValue().asText());
                } else {
                    collect(f.getValue(), exprs);
                }
            });
        } else if (n.isArray()) {
            n.forEach(x -> collect(x, exprs));
        }
    }

    static Set<String> names(String expr) {
        String e = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")      // strings
                .replaceAll("\\{[^}]*}", " ")                           // label matchers
                .replaceAll("\\[[^]]*]", " ")                           // ranges
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,[^)]*\\)", "$1")
                .replaceAll("\\boffset\\s+\\S+", " ");
        Set<String> out = new TreeSet<>();
        Matcher m = NAME.matcher(e);
        while (m.find()) {
            int after = m.end();
            while (after < e.length() && e.charAt(after) == ' ') {
                after++;
            }
            boolean function = after < e.length() && e.charAt(after) == '(';
            boolean number = m.start() > 0 && Character.isDigit(e.charAt(m.start() - 1));
            if (!function && !number && !KEYWORDS.contains(m.group())) {
                out.add(m.group());
            }
        }
        return out;
    }

    /**
     * The series names Homing's /metrics writes with every part of RouterMetrics registered and used once, each of the
     * kind its {@code # TYPE} line says.
     */
    static Map<String, Kind> homingExports() throws Exception {
        EndpointPool pool = new EndpointPool();
        Endpoint pod = new Endpoint("pod-a", "127.0.0.1", 8000);
        pool.setEndpoints(List.of(pod));
        RouterMetrics metrics = new RouterMetrics("pool", pool);
        metrics.requests().requestStarted("m", "m");
        metrics.requests().firstToken("m", "m", 0.1);
        metrics.requests().requestEnded("m", "m", 500, 0.2, 10, 5, 3);
        metrics.requests().scheduled(true, 0.001);
        metrics.requests().retried("pod-a");
        metrics.pool().scraped(pod, false);
        metrics.policy(List::of, List::of, () -> 0.5);
        metrics.responseAffinity(new ResponseAffinity(8));
        metrics.sharedState(pool, () -> true, () -> 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        Map<String, String> types = new TreeMap<>();
        Set<String> names = new TreeSet<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] t = line.substring("# TYPE ".length()).trim().split(" ");
                types.put(t[0], t[1]);
            } else if (!line.isEmpty() && !line.startsWith("#")) {
                Matcher m = NAME.matcher(line);
                if (m.lookingAt()) {
                    names.add(m.group());
                }
            }
        }
        assertThat(names).as("RouterMetrics' exposition").contains("inference_objective_request_total");
        Map<String, Kind> kinds = new TreeMap<>();
        for (String n : names) {
            kinds.put(n, kindOf(n, types));
        }
        return kinds;
    }

    /** A series' kind from its family's TYPE: the family is the name, or the name less a suffix of that type. */
    private static Kind kindOf(String series, Map<String, String> types) {
        if ("counter".equals(types.get(series)) || series.endsWith("_total")
                && "counter".equals(types.get(series.substring(0, series.length() - "_total".length())))) {
            return Kind.COUNTER;
        }
        for (String part : List.of("_bucket", "_sum", "_count")) {
            if (series.endsWith(part) && "histogram".equals(types.get(series.substring(0, series.length()
                    - part.length())))) {
                return part.equals("_bucket") ? Kind.BUCKET : Kind.HISTOGRAM_SUM_OR_COUNT;
            }
        }
        String type = types.get(series);
        assertThat(type).as("TYPE of " + series).isIn("gauge", "untyped", "unknown", "info", "stateset");
        return Kind.GAUGE;
    }

    /** vLLM's series (homing-protocol's VllmMetrics) as a Prometheus scrape of vLLM holds them, by their type. */
    static Map<String, Kind> vllmExports() throws IllegalAccessException {
        Map<String, Kind> out = new TreeMap<>();
        for (Field f : VllmMetrics.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
                    && ((String) f.get(null)).startsWith("vllm:")) {
                String n = (String) f.get(null);
                String type = VLLM_TYPES.get(n);
                assertThat(type).as("vLLM's type of " + n + " (add it to VLLM_TYPES)").isNotNull();
                switch (type) {
                    case "gauge" -> out.put(n, Kind.GAUGE);
                    case "counter" -> out.put(VllmMetrics.total(n), Kind.COUNTER);
                    case "histogram" -> {
                        out.put(n + "_bucket", Kind.BUCKET);
                        out.put(n + "_sum", Kind.HISTOGRAM_SUM_OR_COUNT);
                        out.put(n + "_count", Kind.HISTOGRAM_SUM_OR_COUNT);
                    }
                    default -> throw new AssertionError(type);
                }
            }
        }
        return out;
    }
}
