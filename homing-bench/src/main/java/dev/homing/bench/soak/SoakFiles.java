package dev.homing.bench.soak;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.homing.protocol.config.GoDuration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes a soak's report into a directory: {@code soak.json} (everything) and {@code soak.md} (table and verdicts). */
public final class SoakFiles {

    public static final String JSON = "soak.json";
    public static final String MARKDOWN = "soak.md";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .addModule(new SimpleModule("homing-soak")
                    .addSerializer(Double.class, new FiniteOrNull())
                    .addSerializer(double.class, new FiniteOrNull()))
            .build();

    private SoakFiles() {
    }

    /** Creates the directory when missing; returns the paths written, JSON first. */
    public static List<Path> write(SoakReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        return List.of(Files.writeString(dir.resolve(JSON), json(report), StandardCharsets.UTF_8),
                Files.writeString(dir.resolve(MARKDOWN), markdown(report), StandardCharsets.UTF_8));
    }

    static String json(SoakReport r) throws IOException {
        return MAPPER.writeValueAsString(new Document(r.command(), settings(r.settings()), r.pods(), r.met(),
                r.verdicts(), r.totals(), r.restMillis(), r.clientsStopped(), r.start(), r.samples(), r.rest(),
                r.faults())) + "\n";
    }

    static String markdown(SoakReport r) {
        List<Sample> rows = new ArrayList<>();
        rows.add(r.start());
        rows.addAll(r.samples());
        rows.add(r.rest());
        StringBuilder b = new StringBuilder("# Soak\n\n```\n").append(r.command()).append("\n```\n\n");
        settings(r.settings()).forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
        b.append("- pods: ").append(String.join(", ", r.pods())).append("\n\n");
        b.append(SoakTable.markdown(rows)).append('\n');
        b.append(SoakRun.explainColumns()).append("\n\n");
        for (Verdict v : r.verdicts()) {
            b.append("- **").append(v.met() ? "met" : "NOT MET").append("** ").append(v.goal()).append(": ")
                    .append(v.observed()).append('\n');
        }
        b.append('\n');
        SoakRun.notes(r).forEach(n -> b.append("- ").append(n).append('\n'));
        return b.toString();
    }

    private static Map<String, Object> settings(SoakSettings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("duration", GoDuration.format(s.duration()));
        m.put("sampleEvery", GoDuration.format(s.sampleEvery()));
        m.put("concurrency", s.concurrency());
        m.put("rate", s.rate());
        m.put("killEvery", GoDuration.format(s.killEvery()));
        m.put("downFor", GoDuration.format(s.downFor()));
        m.put("seed", s.seed());
        m.put("readTimeout", GoDuration.format(s.readTimeout()));
        m.put("restTimeout", GoDuration.format(s.restTimeout()));
        return m;
    }

    /** The top level, in this order. */
    record Document(String command, Map<String, Object> settings, List<String> pods, boolean met,
                    List<Verdict> verdicts, Counts totals, long restMillis, boolean clientsStopped, Sample start,
                    List<Sample> samples, Sample rest, List<FaultEvent> faults) {
    }

    /** JSON has no NaN: a number that could not be read is null. */
    private static final class FiniteOrNull extends StdSerializer<Double> {
        FiniteOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value == null || value.isNaN() || value.isInfinite()) {
                gen.writeNull();
            } else {
                gen.writeNumber(value);
            }
        }
    }
}
