package dev.homing.bench.report;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One status line redrawn in place with {@code \r}, at most ten times a second plus forced draws; silent unless told
 * it may draw, so logs and CI output stay free of carriage returns. Not thread-safe: its owner synchronizes.
 */
public final class StatusLine {

    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream out;
    private final boolean enabled;
    private final LongSupplier nanoTime;
    private long lastDraw = Long.MIN_VALUE;
    private int width;

    public StatusLine(PrintStream out, boolean enabled, LongSupplier nanoTime) {
        this.out = out;
        this.enabled = enabled;
        this.nanoTime = nanoTime;
    }

    /**
     * Whether a terminal is attached: {@code System.console() != null}, and from JDK 22 (where a console exists even
     * when redirected) its {@code isTerminal()}, absent from the JDK 21 API we compile against.
     */
    public static boolean terminalAttached() {
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

    /** Forgets the last draw and its width: the next line starts afresh. */
    public void restart() {
        lastDraw = Long.MIN_VALUE;
        width = 0;
    }

    /** Draws the line {@code text} builds, unless disabled or drawn less than a tenth of a second ago (unless forced). */
    public void draw(boolean force, Supplier<String> text) {
        if (!enabled) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (!force && lastDraw != Long.MIN_VALUE && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        String line = text.get();
        // Spaces wipe what a longer previous line left behind.
        String pad = " ".repeat(Math.max(0, width - line.length()));
        width = line.length();
        out.print("\r" + line + pad);
        out.flush();
    }

    /** Ends the line, when one was drawn. */
    public void end() {
        if (enabled && width > 0) {
            out.print('\n');
            out.flush();
        }
    }

    /** A 30-character bar, {@code #} for the share done (full only when all is). */
    public static String bar(double fraction) {
        int filled = (int) (BAR * Math.max(0, Math.min(1, fraction)));
        return "[" + "#".repeat(filled) + "-".repeat(BAR - filled) + "]";
    }
}
