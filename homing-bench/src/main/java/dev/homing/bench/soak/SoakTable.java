package dev.homing.bench.soak;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The soak's table, one row a sample, as text (printed as the run goes, so its columns are fixed) and as Markdown.
 * Counts are the interval's: requests sent in it, and those that ended in it by how they ended.
 */
final class SoakTable {

    private static final List<String> HEADER = List.of("time", "sent", "2xx", "errors", "lost", "cut", "cut body",
            "p50 ms", "p99 ms", "heap MiB", "threads", "fds", "RSS MiB", "in-flight", "running", "load", "pods");
    private static final String TEXT = "%-6s %7s %7s %-12s %5s %5s %8s %7s %8s %8s %7s %5s %7s %9s %7s %5s  %s%n";

    private SoakTable() {
    }

    static String header() {
        return String.format(TEXT, HEADER.toArray());
    }

    static String row(Sample s) {
        return String.format(TEXT, cells(s).toArray());
    }

    static String markdown(List<Sample> rows) {
        StringBuilder b = new StringBuilder();
        b.append("| ").append(String.join(" | ", HEADER)).append(" |\n");
        b.append("|").append("---|".repeat(HEADER.size())).append('\n');
        for (Sample s : rows) {
            b.append("| ").append(String.join(" | ", cells(s).stream().map(c -> c.isEmpty() ? " " : c).toList()))
                    .append(" |\n");
        }
        return b.toString();
    }

    private static List<String> cells(Sample s) {
        Counts c = s.counts();
        RouterState r = s.router();
        return List.of(s.label(), Long.toString(c.sent()), Long.toString(c.ok()), errors(c.errors()),
                Long.toString(c.lostCount()), Long.toString(c.cutStreamCount()), Long.toString(c.cutBodyCount()),
                millis(s.p50Millis()), millis(s.p99Millis()),
                r.heapAfterGcBytes() < 0 ? "?" : String.format("%.1f", r.heapAfterGcBytes() / 1048576.0),
                count(r.threads()), count(r.fds()),
                r.residentBytes() < 0 ? "?" : String.format("%.0f", r.residentBytes() / 1048576.0),
                gauge(r.inFlight()), gauge(r.running()),
                s.loadAverage() == null ? "?" : String.format("%.1f", s.loadAverage()),
                s.faults().stream().map(FaultEvent::toString).collect(Collectors.joining("; ")));
    }

    /** {@code m:ss} from the start of the load. */
    static String clock(long millis) {
        long s = Math.round(millis / 1000.0);
        return String.format("%d:%02d", s / 60, s % 60);
    }

    private static String errors(Map<Integer, Long> byStatus) {
        return byStatus.isEmpty() ? "0" : byStatus.entrySet().stream().map(e -> e.getKey() + "x" + e.getValue())
                .collect(Collectors.joining(","));
    }

    private static String millis(Double ms) {
        return ms == null ? "-" : String.format("%.0f", ms);
    }

    private static String count(int n) {
        return n < 0 ? "?" : Integer.toString(n);
    }

    private static String gauge(double d) {
        return Double.isNaN(d) ? "?" : d == Math.rint(d) ? Long.toString((long) d) : String.format("%.1f", d);
    }
}
