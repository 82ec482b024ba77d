package dev.homing.bench.live;

import dev.homing.bench.report.StatusLine;
import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar for a live run: label, bar, requests done of the total, sent, failed and elapsed seconds.
 * Silent unless told it may draw; {@link #stderr()} draws only when a terminal is attached.
 */
public final class TerminalProgress implements ProgressListener {

    private final StatusLine line;
    private final LongSupplier nanoTime;
    private String label = "";
    private int total;
    private long startNanos;
    private int sent;
    private int done;
    private int failed;

    public TerminalProgress(PrintStream out, boolean enabled, LongSupplier nanoTime) {
        this.line = new StatusLine(out, enabled, nanoTime);
        this.nanoTime = nanoTime;
    }

    /** On stderr when a terminal is attached, else silent. */
    public static TerminalProgress stderr() {
        return new TerminalProgress(System.err, StatusLine.terminalAttached(), System::nanoTime);
    }

    public boolean enabled() {
        return line.enabled();
    }

    @Override
    public synchronized void started(String label, int requests) {
        this.label = label;
        this.total = requests;
        this.startNanos = nanoTime.getAsLong();
        this.sent = 0;
        this.done = 0;
        this.failed = 0;
        line.restart();
        draw(true);
    }

    @Override
    public synchronized void progress(int sent, int done, int failed) {
        this.sent = Math.max(this.sent, sent);
        this.done = Math.max(this.done, done);
        this.failed = Math.max(this.failed, failed);
        draw(false);
    }

    @Override
    public synchronized void finished(int sent, int done, int failed) {
        this.sent = sent;
        this.done = done;
        this.failed = failed;
        draw(true);
        line.end();
    }

    private void draw(boolean force) {
        line.draw(force, () -> String.format("%s %s %d/%d done, %d sent, %d failed, %.0f s", label,
                StatusLine.bar(total == 0 ? 0 : (double) Math.min(done, total) / total), done, total, sent, failed,
                (nanoTime.getAsLong() - startNanos) / 1e9));
    }
}
