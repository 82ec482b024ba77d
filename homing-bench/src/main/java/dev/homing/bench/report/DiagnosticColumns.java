package dev.homing.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The columns of the per-pod diagnostics table, shared by the terminal and HTML reports so they never disagree. */
final class DiagnosticColumns {

    record Column(String label, String format, ToDoubleFunction<PodDiagnostics> value) {
        String cell(PodDiagnostics d) {
            double v = value.applyAsDouble(d);
            return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "-";
        }
    }

    static final List<Column> COLUMNS = List.of(
            new Column("uncached prefill/pod max (k tok)", "%.1f", d -> d.uncachedMax() / 1e3),
            new Column("mean (k tok)", "%.1f", d -> d.uncachedMean() / 1e3),
            new Column("max/mean", "%.2f", d -> d.uncachedMax() / d.uncachedMean()),
            new Column("behind long prefill", "%.1f%%", d -> d.behindLongPrefill() * 100),
            new Column("queue p50 (s)", "%.3f", PodDiagnostics::queueP50),
            new Column("queue p99 (s)", "%.3f", PodDiagnostics::queueP99),
            new Column("own prefill p50 (s)", "%.3f", PodDiagnostics::prefillP50),
            new Column("own prefill p99 (s)", "%.3f", PodDiagnostics::prefillP99));

    /** What the table shows, in a sentence under it. */
    static final String NOTE = "Uncached prefill: prompt tokens minus cached tokens, summed per pod (max and mean over"
            + " the pods). Behind long prefill: requests that waited in a pod's queue while another request's prefill of"
            + " >= " + PodDiagnostics.LONG_PREFILL_TOKENS + " uncached tokens ran there. Queue: time in the"
            + " scheduler's waiting queue (after the engine's per-request overhead); own prefill: first admission to"
            + " first token. Queue and prefill are known in"
            + " virtual runs only.";

    private DiagnosticColumns() {
    }
}
