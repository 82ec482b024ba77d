package dev.homing.bench.report;

import dev.homing.bench.result.BenchReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a report's files into a directory: {@code report.json} always, {@code report.html} when asked. */
public final class ReportFiles {

    public static final String JSON = "report.json";
    public static final String HTML = "report.html";

    private ReportFiles() {
    }

    /** Creates the directory when missing; returns the paths written, JSON first. */
    public static List<Path> write(BenchReport report, Path dir, boolean html) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        written.add(Files.writeString(dir.resolve(JSON), JsonReport.render(report), StandardCharsets.UTF_8));
        if (html) {
            written.add(Files.writeString(dir.resolve(HTML), HtmlReport.render(report), StandardCharsets.UTF_8));
        }
        return written;
    }
}
