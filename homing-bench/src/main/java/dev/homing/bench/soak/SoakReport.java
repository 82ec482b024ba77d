package dev.homing.bench.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * A soak's result: the router sampled before the load, at every interval under it and at rest after it, what the
 * clients met, what was done to the pods, and the goals judged.
 *
 * @param command        the command line that reproduces the run
 * @param pods           the pods' names
 * @param restMillis     how long after the load stopped the router's in-flight gauges read 0 (or the rest timeout)
 * @param clientsStopped whether every client had its last request end before the rest
 * @param totals         what the clients met over the whole run
 */
public record SoakReport(String command, SoakSettings settings, List<String> pods, Sample start, List<Sample> samples,
                         Sample rest, long restMillis, boolean clientsStopped, Counts totals, List<FaultEvent> faults,
                         List<Verdict> verdicts) {

    /** Heap after GC at the end may be at most this many times the second sample's. */
    public static final double HEAP_GROWTH = 1.1;
    /** Threads and file descriptors at the end within this many of the second sample's. */
    public static final int DRIFT = 5;

    public SoakReport {
        pods = List.copyOf(pods);
        samples = List.copyOf(samples);
        faults = List.copyOf(faults);
        verdicts = List.copyOf(verdicts);
    }

    public boolean met() {
        return verdicts.stream().allMatch(Verdict::met);
    }

    /**
     * The soak's goals (issue 16): heap after GC at the last sample <= 1.1x the second's (the first is the warm-up),
     * threads and file descriptors within +-5 of it, nothing in flight at rest, nothing lost; and every sample taken
     * whole, without which the rest means little.
     */
    static List<Verdict> judge(SoakSettings settings, List<Sample> samples, Sample rest, long restMillis,
                               boolean clientsStopped, Counts totals) {
        List<Verdict> v = new ArrayList<>();
        long whole = samples.stream().filter(s -> s.router().problem().isEmpty()).count();
        v.add(new Verdict("every sample taken", String.format("%d of %d under load, each whole: %d%s", samples.size(),
                settings.samples(), whole, rest.router().problem().isEmpty() ? "; at rest too"
                        : "; at rest: " + rest.router().problem()),
                samples.size() == settings.samples() && whole == samples.size() && rest.router().problem().isEmpty()));
        if (!samples.isEmpty()) {
            Sample base = samples.get(Math.min(1, samples.size() - 1));
            Sample last = samples.getLast();
            long h0 = base.router().heapAfterGcBytes();
            long h1 = last.router().heapAfterGcBytes();
            double ratio = h0 > 0 && h1 > 0 ? (double) h1 / h0 : Double.NaN;
            v.add(new Verdict(String.format("heap after GC at %s <= %.1fx %s", last.label(), HEAP_GROWTH, base.label()),
                    String.format("%s at %s, %s at %s: %.3fx", mib(h1), last.label(), mib(h0), base.label(), ratio),
                    ratio <= HEAP_GROWTH));
            v.add(drift("threads", last, base, last.router().threads(), base.router().threads()));
            v.add(drift("file descriptors", last, base, last.router().fds(), base.router().fds()));
        }
        double inFlight = rest.router().inFlight();
        double running = rest.router().running();
        v.add(new Verdict("in flight at rest = 0", String.format("%s (%s), %s (%s), read %.1f s after the load "
                + "stopped", number(inFlight), RouterProbe.IN_FLIGHT, number(running), RouterProbe.RUNNING,
                restMillis / 1e3), inFlight == 0 && running == 0));
        long unaccounted = totals.sent() - totals.ended();
        v.add(new Verdict("lost = 0", String.format("%,d of %,d sent%s", totals.lostCount(), totals.sent(),
                unaccounted == 0 && clientsStopped ? "" : String.format("; %,d never ended", unaccounted)),
                totals.lostCount() == 0 && unaccounted == 0 && clientsStopped));
        return v;
    }

    private static Verdict drift(String what, Sample last, Sample base, int now, int then) {
        int d = now - then;
        return new Verdict(String.format("%s at %s within +-%d of %s", what, last.label(), DRIFT, base.label()),
                String.format("%d at %s, %d at %s: %+d", now, last.label(), then, base.label(), d),
                now >= 0 && then >= 0 && Math.abs(d) <= DRIFT);
    }

    static String mib(long bytes) {
        return bytes < 0 ? "?" : String.format("%.1f MiB", bytes / 1048576.0);
    }

    private static String number(double d) {
        return Double.isNaN(d) ? "unread" : d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
