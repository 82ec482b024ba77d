package dev.homing.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.Summary;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One scenario run under several seeds, policy by policy: what a policy is judged by, seed by seed and the mean over
 * the seeds, for the whole run and stage by stage (each stage of a QPS ladder is a load of its own). A margin seen on
 * one seed is noise until the others agree, so the table puts them side by side. It keeps only summaries, never a
 * run's records, so any number of seeds fits in memory.
 */
public final class SeedsReport {

    /** The metrics tabled per seed, in order. */
    static final List<Metric> METRICS = List.of(Metric.TTFT_P90, Metric.OUTPUT_TPS, Metric.HIT_VS_BOUND);

    /** One policy's numbers on one workload under one seed: the whole run, then stage by stage. */
    record Cell(Summary total, Map<Integer, Summary> stages, Map<Integer, Double> stageQps, double bound) {
    }

    private final String scenario;
    private final List<Long> seeds = new ArrayList<>();
    /** workload -> policy -> seed -> cell, each level in the order first seen. */
    private final Map<String, Map<String, Map<Long, Cell>>> cells = new LinkedHashMap<>();

    public SeedsReport(String scenario) {
        this.scenario = scenario;
    }

    /** Adds one seed's report; its records may be dropped afterwards. */
    public SeedsReport add(BenchReport report) {
        if (seeds.contains(report.seed())) {
            throw new IllegalArgumentException("seed " + report.seed() + " is already in the report");
        }
        seeds.add(report.seed());
        for (WorkloadResults w : WorkloadResults.of(report)) {
            Map<String, Map<Long, Cell>> byPolicy = cells.computeIfAbsent(w.workload(), k -> new LinkedHashMap<>());
            for (RunSummary r : w.runs()) {
                Map<Integer, Summary> stages = new LinkedHashMap<>();
                Map<Integer, Double> qps = new LinkedHashMap<>();
                for (StageSummary s : r.stages()) {
                    stages.put(s.stage(), s.summary());
                    qps.put(s.stage(), s.offeredQps());
                }
                byPolicy.computeIfAbsent(r.policy(), k -> new LinkedHashMap<>())
                        .put(report.seed(), new Cell(r.total(), stages, qps, w.bound()));
            }
        }
        return this;
    }

    public List<Long> seeds() {
        return List.copyOf(seeds);
    }

    /**
     * A metric's value for each policy under each seed (NaN when a policy has no run there) and, last, their mean
     * over the seeds it has; {@code stage} null for the whole run.
     */
    double[][] values(String workload, Metric m, Integer stage) {
        Map<String, Map<Long, Cell>> byPolicy = cells.getOrDefault(workload, Map.of());
        double[][] out = new double[byPolicy.size()][seeds.size() + 1];
        int p = 0;
        for (Map<Long, Cell> bySeed : byPolicy.values()) {
            double sum = 0;
            int known = 0;
            for (int s = 0; s < seeds.size(); s++) {
                Cell c = bySeed.get(seeds.get(s));
                Summary summary = c == null ? null : stage == null ? c.total() : c.stages().get(stage);
                double v = summary == null ? Double.NaN : m.value(summary, c.bound());
                out[p][s] = v;
                if (Double.isFinite(v)) {
                    sum += v;
                    known++;
                }
            }
            out[p][seeds.size()] = known == 0 ? Double.NaN : sum / known;
            p++;
        }
        return out;
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("Scenario ").append(scenario).append(" (virtual), seeds ")
                .append(String.join(", ", seeds.stream().map(String::valueOf).toList()))
                .append(": each seed's value and their mean\n");
        for (Map.Entry<String, Map<String, Map<Long, Cell>>> w : cells.entrySet()) {
            List<String> policies = List.copyOf(w.getValue().keySet());
            Set<Integer> stages = new LinkedHashSet<>();
            Map<Integer, Double> qps = new LinkedHashMap<>();
            w.getValue().values().forEach(bySeed -> bySeed.values().forEach(c -> {
                stages.addAll(c.stages().keySet());
                c.stageQps().forEach((k, v) -> {
                    if (v > 0) {
                        qps.putIfAbsent(k, v);
                    }
                });
            }));
            for (Metric m : METRICS) {
                out.append('\n').append("Workload ").append(w.getKey()).append(", ").append(m.label())
                        .append(m == Metric.HIT_VS_BOUND ? " (bound: " + boundName(w.getValue()) + ")" : "")
                        .append('\n').append(table(policies, values(w.getKey(), m, null), m));
                // the bounds are the whole workload's: a stage shows its hit rate
                Metric byStage = m == Metric.HIT_VS_BOUND ? Metric.HIT_RATE : m;
                if (stages.size() > 1) {
                    for (int stage : stages) {
                        Double q = qps.get(stage);
                        out.append('\n').append(byStage.label()).append(", stage ").append(stage)
                                .append(q == null ? "" : String.format(Locale.ROOT, " (%.2f QPS)", q)).append('\n')
                                .append(table(policies, values(w.getKey(), byStage, stage), byStage));
                    }
                }
            }
        }
        out.append("\n* best of the column\n");
        return out.toString();
    }

    private static String boundName(Map<String, Map<Long, Cell>> byPolicy) {
        return byPolicy.values().stream().flatMap(m -> m.values().stream()).findFirst()
                .map(c -> Double.isNaN(c.bound()) ? "none" : "Belady over the fleet's capacity").orElse("none");
    }

    private String table(List<String> policies, double[][] values, Metric m) {
        List<String> header = new ArrayList<>(List.of("policy"));
        seeds.forEach(s -> header.add("seed " + s + " "));
        header.add("mean ");
        String[][] cells = new String[policies.size()][seeds.size() + 1];
        for (int c = 0; c <= seeds.size(); c++) {
            double[] column = new double[policies.size()];
            for (int p = 0; p < policies.size(); p++) {
                column[p] = values[p][c];
            }
            boolean[] best = m.best(column);
            for (int p = 0; p < policies.size(); p++) {
                cells[p][c] = m.format(column[p]) + (best[p] ? "*" : " ");
            }
        }
        TextTable t = new TextTable(header);
        for (int p = 0; p < policies.size(); p++) {
            List<String> row = new ArrayList<>(List.of(policies.get(p)));
            row.addAll(List.of(cells[p]));
            t.row(row);
        }
        return t.render();
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    /**
     * The same numbers as JSON for scripts: {@code {scenario, seeds, workloads: {name: {policy: {seed: {total,
     * stages}}}}}}, each a map of the tabled metrics and TTFT p50/p99 by name; null where there is no value.
     */
    public String json() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("scenario", scenario);
        doc.put("seeds", seeds);
        Map<String, Object> workloads = new LinkedHashMap<>();
        cells.forEach((workload, byPolicy) -> {
            Map<String, Object> policies = new LinkedHashMap<>();
            byPolicy.forEach((policy, bySeed) -> {
                Map<String, Object> perSeed = new LinkedHashMap<>();
                bySeed.forEach((seed, c) -> {
                    Map<String, Object> stageMap = new LinkedHashMap<>();
                    c.stages().forEach((stage, s) -> {
                        Map<String, Object> one = numbers(s, c.bound());
                        one.put("offeredQps", finite(c.stageQps().getOrDefault(stage, Double.NaN)));
                        stageMap.put(String.valueOf(stage), one);
                    });
                    Map<String, Object> seedMap = new LinkedHashMap<>();
                    seedMap.put("total", numbers(c.total(), c.bound()));
                    seedMap.put("stages", stageMap);
                    perSeed.put(String.valueOf(seed), seedMap);
                });
                policies.put(policy, perSeed);
            });
            workloads.put(workload, policies);
        });
        doc.put("workloads", workloads);
        try {
            return MAPPER.writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> numbers(Summary s, double bound) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ttftP50", finite(s.ttftP50()));
        m.put("ttftP90", finite(s.ttftP90()));
        m.put("ttftP99", finite(s.ttftP99()));
        m.put("outputTokensPerSecond", finite(s.outputTokensPerSecond()));
        m.put("hitRate", finite(s.hitRate()));
        m.put("hitRateOfBound", finite(Metric.HIT_VS_BOUND.value(s, bound)));
        m.put("requests", s.requests());
        m.put("served", s.served());
        return m;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
