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
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/homing-dashboard.json names only metrics that Homing exports (read from what RouterMetrics writes on
 * /metrics, every part of it in use) or that vLLM exports (homing-protocol's VllmMetrics, as exposed: counters with
 * {@code _total}, histograms with {@code _bucket}, {@code _sum}, {@code _count}); renaming one breaks this test. And it
 * has the panels the issue asks for: requests, TTFT, decisions, prefix hit ratio, per-pod load; vLLM queue, KV usage,
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

    @Test
    void everyMetricNamedIsOneHomingOrVllmExports() throws Exception {
        Set<String> exported = new TreeSet<>(homingExports());
        exported.addAll(vllmExports());
        Set<String> named = namedMetrics();
        assertThat(named).isNotEmpty();
        assertThat(named).allSatisfy(n -> assertThat(exported).as("exported metrics").contains(n));
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

    /** The series names Homing's /metrics writes with every part of RouterMetrics registered and used once. */
    static Set<String> homingExports() throws Exception {
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
        Set<String> names = new TreeSet<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                Matcher m = NAME.matcher(line);
                if (m.lookingAt()) {
                    names.add(m.group());
                }
            }
        }
        assertThat(names).as("RouterMetrics' exposition").contains("inference_objective_request_total");
        return names;
    }

    /** vLLM's metric names (homing-protocol's VllmMetrics) in every form a Prometheus scrape of vLLM holds. */
    static Set<String> vllmExports() throws IllegalAccessException {
        Set<String> out = new TreeSet<>();
        for (Field f : VllmMetrics.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
                    && ((String) f.get(null)).startsWith("vllm:")) {
                String n = (String) f.get(null);
                out.addAll(List.of(n, VllmMetrics.total(n), n + "_bucket", n + "_sum", n + "_count"));
            }
        }
        return out;
    }
}
