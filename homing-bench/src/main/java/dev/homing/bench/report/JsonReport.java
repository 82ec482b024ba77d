package dev.homing.bench.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.CacheBounds;
import dev.homing.bench.result.LoadSample;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.result.Summary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The whole report as JSON, for scripts and for comparing runs: what ran (scenario, mode, seed, parameters, the
 * command that reproduces it), each workload's hit-rate bounds (infinite cache; Belady and LRU over one cache of the
 * fleet's capacity, when known), and per run its summary, its per-pod diagnostics, its per-stage summaries, its raw
 * request records and load samples. Fields come in a fixed order and map keys sorted, so two reports diff
 * cleanly; a number that does not exist (a percentile of nothing) is {@code null}, as JSON has no NaN. The outline is
 * indented; each request record, load sample and stage sits on one line of its own, so a run of many thousand
 * requests stays a file that grep, diff and jq take line by line.
 */
public final class JsonReport {

    /** Containers nested deeper than this (a record in a run's list, a stage's summary) go on one line. */
    private static final int OUTLINE_DEPTH = 4;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .defaultPrettyPrinter(new Outline(OUTLINE_DEPTH))
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .addModule(new SimpleModule("homing-bench-report")
                    .addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(double.class, new FiniteOrNull()))
            .build();

    private JsonReport() {
    }

    public static String render(BenchReport report) {
        try {
            return MAPPER.writeValueAsString(Document.of(report)) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The top level; components serialize in declaration order. */
    record Document(String scenario, String mode, long seed, String command, Map<String, Object> parameters,
                    Map<String, Double> hitRateBounds, Map<String, CacheBounds> cacheBounds, List<Run> runs) {

        static Document of(BenchReport r) {
            List<Run> runs = r.runs().stream()
                    .map(run -> Run.of(RunSummary.of(run), r.hitRateBounds().getOrDefault(run.workload(), Double.NaN),
                            r.cacheBounds().get(run.workload())))
                    .toList();
            return new Document(r.scenario(), r.mode(), r.seed(), r.command(), r.parameters(), r.hitRateBounds(),
                    r.cacheBounds(), runs);
        }
    }

    /**
     * One policy's run of one workload. {@code hitRateOfBound} divides by {@code boundName}'s hit rate: Belady's
     * when the fleet's capacity is known, the infinite cache's otherwise.
     */
    record Run(String policy, String workload, long wallNanos, List<Double> stageQps, Double hitRateBound,
               Double beladyBound, Double lruBound, String boundName, Double hitRateOfBound, Summary summary,
               PodDiagnostics diagnostics, Map<String, Map<String, Double>> pluginReports,
               List<StageSummary> stages, @JsonInclude(JsonInclude.Include.NON_NULL) AdmissionSummary admission,
               List<RequestRecord> records, List<LoadSample> load) {

        static Run of(RunSummary s, double infinite, CacheBounds pooled) {
            double bound = pooled != null ? pooled.belady() : infinite;
            return new Run(s.policy(), s.workload(), s.run().wallNanos(), s.run().stageQps(), infinite,
                    pooled == null ? Double.NaN : pooled.belady(), pooled == null ? Double.NaN : pooled.lru(),
                    pooled == null ? "infinite cache" : "Belady", Metric.HIT_VS_BOUND.value(s.total(), bound),
                    s.total(), s.diagnostics(), s.run().pluginReports(), s.stages(), AdmissionSummary.of(s.run()),
                    s.run().records(),
                    s.run().load());
        }
    }

    /** Indents down to a depth, and writes anything deeper on the line where it starts. */
    private static final class Outline extends DefaultPrettyPrinter {

        private final int depth;

        Outline(int depth) {
            this.depth = depth;
            Indenter indenter = new Shallow(new DefaultIndenter("  ", "\n"), depth);
            indentObjectsWith(indenter);
            indentArraysWith(indenter);
        }

        @Override
        public DefaultPrettyPrinter createInstance() {
            return new Outline(depth);
        }

        @Override
        public void writeEndObject(JsonGenerator g, int entries) throws IOException {
            if (_nesting > depth) {
                _nesting--;
                g.writeRaw(entries > 0 ? " }" : "}");
            } else {
                super.writeEndObject(g, entries);
            }
        }

        @Override
        public void writeEndArray(JsonGenerator g, int values) throws IOException {
            if (_nesting > depth) {
                _nesting--;
                g.writeRaw(values > 0 ? " ]" : "]");
            } else {
                super.writeEndArray(g, values);
            }
        }
    }

    /** A new line and indentation down to the depth; a space below it. */
    private record Shallow(DefaultIndenter outline, int depth) implements DefaultPrettyPrinter.Indenter {

        @Override
        public void writeIndentation(JsonGenerator g, int level) throws IOException {
            if (level <= depth) {
                outline.writeIndentation(g, level);
            } else {
                g.writeRaw(' ');
            }
        }

        @Override
        public boolean isInline() {
            return false;
        }
    }

    private static final class FiniteOrNull extends StdSerializer<Double> {
        FiniteOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value == null || !Double.isFinite(value)) {
                gen.writeNull();
            } else {
                gen.writeNumber(value);
            }
        }
    }
}
