package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.random.RandomGenerator;

/**
 * When each request of a workload is sent, and so how many there are. One of:
 * <ul>
 *   <li><b>poisson</b> ({@code qps}): exponential gaps at each stage's rate for the stage's seconds;</li>
 *   <li><b>closed-loop</b> ({@code concurrency}): no times, the driver keeps that many in flight;</li>
 *   <li><b>burst</b> (cold-burst's default): all at t = 0;</li>
 *   <li><b>timestamps</b> (trace's default): the trace's own times, divided by {@code speed}.</li>
 * </ul>
 *
 * @param nanos      per request, from the start of the run; -1 in closed loop
 * @param stages     per request, its load stage
 * @param stageQps   per stage, its rate (empty in closed loop; 0 for a burst, which has none; a trace's mean rate)
 * @param concurrency closed loop's requests in flight, else 0
 */
record Arrivals(String mode, long[] nanos, int[] stages, List<Double> stageQps, int concurrency) {

    /** Guards the heap: every request's prompt is held in memory. */
    static final int MAX_REQUESTS = 5_000_000;

    static final String QPS = "qps";
    static final String DURATION = "duration";
    static final String CONCURRENCY = "concurrency";
    static final String NUM_REQUESTS = "num_requests";

    int count() {
        return nanos.length;
    }

    static Arrivals plan(Parameters p, ContentSource source, RandomGenerator rng, TraceReplay trace) {
        if (p.isGiven(QPS) && p.isGiven(CONCURRENCY)) {
            throw new IllegalArgumentException("give qps (scheduled arrivals) or concurrency (closed loop), not both");
        }
        OptionalInt cap = p.isGiven(NUM_REQUESTS) ? OptionalInt.of(p.integer(NUM_REQUESTS, 1)) : OptionalInt.empty();
        int limit = Math.min(cap.orElse(MAX_REQUESTS), source.limit().orElse(MAX_REQUESTS));
        if (p.isGiven(CONCURRENCY)) {
            rejectDuration(p, "closed loop (concurrency)");
            int n = Math.min(cap.orElse(source.onePass()), limit);
            long[] nanos = new long[n];
            Arrays.fill(nanos, -1);
            return new Arrivals("closed-loop", nanos, new int[n], List.of(), p.integer(CONCURRENCY, 1));
        }
        if (!p.string(QPS).isEmpty()) {
            return poisson(p, rng, limit, cap.isPresent() || source.limit().isPresent());
        }
        if (trace != null) {
            return timestamps(p, trace, limit);
        }
        rejectDuration(p, "a burst");
        int n = Math.min(cap.orElse(source.onePass()), limit);
        return new Arrivals("burst", new long[n], new int[n], List.of(0.0), 0);
    }

    private static Arrivals poisson(Parameters p, RandomGenerator rng, int limit, boolean bounded) {
        String text = p.string(QPS);
        boolean ladder = text.toLowerCase(Locale.ROOT).contains("x");
        double seconds;
        if (ladder) {
            rejectDuration(p, "a qps ladder (its stages say how long)");
            seconds = Double.NaN;
        } else if (!p.string(DURATION).isEmpty()) {
            seconds = p.decimal(DURATION, 0, true);
        } else if (bounded) {
            seconds = Double.POSITIVE_INFINITY;
        } else {
            throw new IllegalArgumentException("a single qps needs duration (seconds) or num_requests");
        }
        QpsLadder q;
        try {
            q = QpsLadder.parse(text, seconds);
        } catch (IllegalArgumentException e) {
            throw p.bad(QPS, text, "QPS, or stages QPSxSECONDS,... (" + e.getMessage() + ")");
        }
        if (q.expectedRequests() > MAX_REQUESTS && limit >= MAX_REQUESTS) {
            throw p.bad(QPS, text, "at most " + MAX_REQUESTS + " requests on average; lower it or set num_requests");
        }
        if (ladder) {
            p.note(QPS, q.toString()); // normalised: 3x20,10x20 however it was spaced
        }
        List<Integer> stageOf = new ArrayList<>();
        long[] nanos = q.arrivals(rng, limit, stageOf);
        if (nanos.length == 0) {
            throw p.bad(QPS, text, "a load that sends at least one request");
        }
        return new Arrivals("poisson", nanos, stageOf.stream().mapToInt(Integer::intValue).toArray(), q.rates(), 0);
    }

    private static Arrivals timestamps(Parameters p, TraceReplay trace, int limit) {
        if (!trace.hasTimestamps()) {
            throw new IllegalArgumentException("the trace has records without a timestamp: give qps or concurrency"
                    + " to replay it");
        }
        double speed = p.decimal("speed", 0, true);
        double window = p.string(DURATION).isEmpty() ? Double.POSITIVE_INFINITY : p.decimal(DURATION, 0, true);
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < trace.onePass() && times.size() < limit; i++) {
            long t = trace.arrivalNanos(i, speed);
            if (t >= window * 1e9) {
                break;
            }
            times.add(t);
        }
        long[] nanos = times.stream().mapToLong(Long::longValue).toArray();
        double span = nanos[nanos.length - 1] / 1e9;
        return new Arrivals("timestamps", nanos, new int[nanos.length], List.of(span > 0 ? nanos.length / span : 0),
                0);
    }

    private static void rejectDuration(Parameters p, String mode) {
        if (p.isGiven(DURATION)) {
            throw p.bad(DURATION, p.string(DURATION), "nothing: " + mode + " takes no duration; it goes with a single"
                    + " qps, or windows a trace's timestamps");
        }
    }
}
