package dev.homing.bench.live;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar redrawn in place with {@code \r}: label, bar, requests done of the total, sent, failed and
 * elapsed seconds. Silent unless told it may draw; {@link #stderr()} draws only when a terminal is attached, so logs
 * and CI output stay free of carriage returns. Redraws at most ten times a second, plus the final line.
 */
public final class TerminalProgress implements ProgressListener {

    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream out;
    private final boolean enabled;
    private final LongSupplier nanoTime;
    private String label = "";
    private int total;
    private long startNanos;
    private long lastDraw = Long.MIN_VALUE;
    private int width;
    private int sent;
    private int done;
    private int failed;

    public TerminalProgress(PrintStream out, boolean enabled, LongSupplier nanoTime) {
        this.out = out;
        this.enabled = enabled;
        this.nanoTime = nanoTime;
    }

    /** On stderr when a console is attached, else silent. */
    public static TerminalProgress stderr() {
        return new TerminalProgress(System.err, terminalAttached(), System::nanoTime);
    }

    /**
     * {@code System.console() != null}; from JDK 22 a console exists even when redirected, and its
     * {@code isTerminal()} (absent from the JDK 21 API we compile against) says whether it is really a terminal.
     */
    static boolean terminalAttached() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    public boolean enabled() {
        return enabled;
    }

    @Override
    public synchronized void started(String label, int requests) {
        this.label = label;
        this.total = requests;
        this.startNanos = nanoTime.getAsLong();
        this.sent = 0;
        this.done = 0;
        this.failed = 0;
        this.width = 0;
        this.lastDraw = Long.MIN_VALUE;
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
        if (enabled) {
            out.print('\n');
            out.flush();
        }
    }

    private void draw(boolean force) {
        if (!enabled) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (!force && lastDraw != Long.MIN_VALUE && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        int filled = total == 0 ? 0 : (int) ((long) BAR * Math.min(done, total) / total);
        String line = String.format("%s [%s%s] %d/%d done, %d sent, %d failed, %.0f s", label, "#".repeat(filled),
                "-".repeat(BAR - filled), done, total, sent, failed, (now - startNanos) / 1e9);
        // Spaces wipe what a longer previous line left behind.
        String pad = " ".repeat(Math.max(0, width - line.length()));
        width = line.length();
        out.print("\r" + line + pad);
        out.flush();
    }
}
