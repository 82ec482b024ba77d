package dev.homing.bench.soak;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts what every client meets, from all of them at once, cumulatively; a snapshot is read at each sample and
 * intervals are the differences. The latencies of answered requests are kept per interval.
 */
final class Tally {

    private static final long MAX_MICROS = 3_600_000_000L;

    private final LongAdder sent = new LongAdder();
    private final LongAdder ok = new LongAdder();
    private final Map<Integer, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> lost = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> cutStreams = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> cutBodies = new ConcurrentHashMap<>();
    private final Recorder okMicros = new Recorder(MAX_MICROS, 3);

    void sent() {
        sent.increment();
    }

    void add(Outcome o) {
        switch (o.kind()) {
            case OK -> {
                ok.increment();
                okMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, o.nanos() / 1000)));
            }
            case ERROR -> errors.computeIfAbsent(o.status(), k -> new LongAdder()).increment();
            case LOST -> lost.computeIfAbsent(o.why(), k -> new LongAdder()).increment();
            case CUT -> (o.stream() ? cutStreams : cutBodies).computeIfAbsent(o.why(), k -> new LongAdder())
                    .increment();
        }
    }

    /** Everything counted so far. */
    Counts snapshot() {
        return new Counts(sent.sum(), ok.sum(), sums(errors), sums(lost), sums(cutStreams), sums(cutBodies));
    }

    /** Latencies of the requests answered since the last call, in µs. */
    Histogram answeredSinceLast() {
        return okMicros.getIntervalHistogram();
    }

    private static <K> SortedMap<K, Long> sums(Map<K, LongAdder> m) {
        SortedMap<K, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
