package dev.homing.bench.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * Runs a soak: samples the router at rest, starts the load and the faults, samples the router at the end of every
 * interval (printing each row as it is taken), then stops the load, lets every client's last request end, waits for
 * the router's in-flight gauges to read 0 and its idle pod connections to close, and samples it at rest. The run
 * never throws for what the router does: a failure is a count or a verdict.
 */
public final class SoakRun {

    /** The model the soak's requests name: the pods must serve it. */
    public static final String MODEL = SoakMix.MODEL;

    /** After in-flight reads 0, how long to wait before the rest sample: the router closes pod connections idle 4 s. */
    static final Duration SETTLE = Duration.ofSeconds(5);

    private final SoakSettings settings;
    private final SoakTarget target;
    private final Fleet fleet;
    private final String command;
    private final PrintStream out;

    /**
     * @param command the command line that reproduces the run, for the report
     * @param out     where the table goes as the run goes
     */
    public SoakRun(SoakSettings settings, SoakTarget target, Fleet fleet, String command, PrintStream out) {
        this.settings = settings;
        this.target = target;
        this.fleet = fleet;
        this.command = command;
        this.out = out;
    }

    public SoakReport run() throws InterruptedException {
        SoakMix mix = SoakMix.create(settings.seed());
        RouterProbe probe = new RouterProbe(target.process(), target.metrics());
        Tally tally = new Tally();
        out.printf("homing soak: %s of load through the router (127.0.0.1:%d, pid %d) to %d pods (%s): %d clients%s, "
                        + "%d requests in the mix (completions and chats with shared prefixes, half streamed); a pod "
                        + "killed every %s and started again %s later (%d kill%s); the router sampled every %s%n%n",
                human(settings.duration()), target.api().getPort(), target.process().pid(), fleet.names().size(),
                String.join(", ", fleet.names()), settings.concurrency(),
                settings.rate() > 0 ? String.format(" at most %.1f requests/s", settings.rate()) : "",
                mix.size(), human(settings.killEvery()), human(settings.downFor()), settings.kills(),
                settings.kills() == 1 ? "" : "s",
                human(settings.sampleEvery()));
        awaitFleet(probe);
        out.print(SoakTable.header());
        Sample start = new Sample("start", 0, probe.sample(), Counts.NONE, null, null,
                loadAverage(), List.of());
        out.print(SoakTable.row(start));
        SoakLoad load = new SoakLoad(target.api(), mix, settings.concurrency(), settings.rate(),
                settings.readTimeout(), tally);
        Faults faults = new Faults(fleet, settings.killEvery(), settings.downFor(), settings.duration(),
                settings.seed());
        List<Sample> samples = new ArrayList<>();
        Counts before = Counts.NONE;
        long beforeMillis = 0;
        long t0 = System.nanoTime();
        load.start();
        faults.start(t0);
        try {
            for (int k = 1; k <= settings.samples(); k++) {
                long at = k * settings.sampleEvery().toNanos();
                long wait = t0 + at - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(Duration.ofNanos(wait));
                }
                long atMillis = at / 1_000_000;
                Counts now = tally.snapshot();
                Histogram answered = tally.answeredSinceLast();
                Sample s = new Sample(SoakTable.clock(atMillis), atMillis, probe.sample(), now.minus(before),
                        millis(answered, 50), millis(answered, 99), loadAverage(),
                        faults.between(beforeMillis, atMillis));
                samples.add(s);
                out.print(SoakTable.row(s));
                before = now;
                beforeMillis = atMillis;
            }
        } finally {
            load.stop();
        }
        boolean clientsStopped = load.awaitStopped(settings.readTimeout().plusSeconds(30));
        faults.awaitDone(Duration.ofMinutes(2));
        long stopped = System.nanoTime();
        restWait(probe, stopped);
        long restMillis = (System.nanoTime() - stopped) / 1_000_000;
        Thread.sleep(SETTLE);
        Counts end = tally.snapshot();
        Histogram answered = tally.answeredSinceLast();
        long endMillis = (System.nanoTime() - t0) / 1_000_000;
        Sample rest = new Sample("rest", endMillis, probe.sample(), end.minus(before), millis(answered, 50),
                millis(answered, 99), loadAverage(), faults.between(beforeMillis, Long.MAX_VALUE));
        out.print(SoakTable.row(rest));
        List<Verdict> verdicts = SoakReport.judge(settings, samples, rest, restMillis, clientsStopped, end);
        SoakReport report = new SoakReport(command, settings, fleet.names(), start, samples, rest, restMillis,
                clientsStopped, end, faults.all(), verdicts);
        out.println();
        out.println(explainColumns());
        out.println();
        notes(report).forEach(n -> out.println(n));
        out.println();
        verdicts.forEach(v -> out.println(v));
        return report;
    }

    /** Waits, at most a minute, until the router has read every pod's metrics: the load starts on a whole fleet. */
    private void awaitFleet(RouterProbe probe) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        double ready = Double.NaN;
        while (System.nanoTime() < deadline) {
            try {
                ready = probe.readyPods();
                if (ready >= fleet.names().size()) {
                    return;
                }
            } catch (IOException e) {
                // not serving its metrics yet
            }
            Thread.sleep(100);
        }
        out.printf("(the router had read %s of %d pods' metrics after a minute; starting anyway)%n", ready,
                fleet.names().size());
    }

    /** Polls the in-flight gauges until both read 0, at most the rest timeout. */
    private void restWait(RouterProbe probe, long from) throws InterruptedException {
        long deadline = from + settings.restTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            try {
                double[] f = probe.inFlight();
                if (f[0] == 0 && f[1] == 0) {
                    return;
                }
            } catch (IOException e) {
                // read again until the deadline; the rest sample says what it could not read
            }
            Thread.sleep(100);
        }
    }

    static String explainColumns() {
        return "Each row's counts are its interval's: requests sent in it, and those that ended in it: 2xx (a stream "
                + "to data: [DONE]), errors by status (STATUSxCOUNT), lost (no status at all), cut (a stream begun "
                + "that did not end with [DONE]), cut body (a non-streamed 2xx cut short); p50/p99 of the answered "
                + "ones. The router is sampled from outside at the interval's end: heap after a full GC (jcmd), "
                + "threads and file descriptors (/proc), RSS, and its gauges " + RouterProbe.IN_FLIGHT
                + " (in-flight) and " + RouterProbe.RUNNING + " (running), summed; load: the machine's 1-minute load "
                + "average (" + Runtime.getRuntime().availableProcessors() + " CPUs here: above that, work waits for "
                + "them). start: before the load; rest: after it, once every client's last request ended and the "
                + "gauges read 0, " + SETTLE.toSeconds() + " s later (the router closes pod connections idle for 4 s).";
    }

    /** What the verdicts do not say: errors, cuts and why, and the faults. */
    static List<String> notes(SoakReport r) {
        Counts t = r.totals();
        List<String> notes = new ArrayList<>();
        long kills = r.faults().stream().filter(f -> f.what().equals("killed")).count();
        long backs = r.faults().stream().filter(f -> f.what().startsWith("restarted")).count();
        notes.add(String.format("pods killed: %d, started again: %d%s", kills, backs, r.faults().stream()
                .filter(f -> f.what().contains("failed")).map(f -> "; " + f).collect(Collectors.joining())));
        notes.add(String.format("requests: %,d sent, %,d answered 2xx, %,d errors%s, %,d lost%s", t.sent(), t.ok(),
                t.errorCount(), t.errors().isEmpty() ? "" : " (" + t.errors().entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")",
                t.lostCount(), why(t.lost())));
        notes.add(String.format("streams cut mid-way: %,d%s; non-streamed bodies cut: %,d%s", t.cutStreamCount(),
                why(t.cutStreams()), t.cutBodyCount(), why(t.cutBodies())));
        return notes;
    }

    private static String why(Map<String, Long> byWhy) {
        return byWhy.isEmpty() ? "" : " (" + new TreeMap<>(byWhy).entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")";
    }

    /** The machine's load average over the last minute, or null where Linux's {@code /proc/loadavg} is not. */
    private static Double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Double millis(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile) / 1e3;
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 60 && s % 60 == 0) {
            return (s / 60) + " min";
        }
        return d.toMillis() % 1000 == 0 ? s + " s" : d.toMillis() + " ms";
    }
}
