package dev.homing.bench.dataplane;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Sends one request, already in bytes, to a server over keep-alive connections, one virtual thread a connection.
 * Closed loop: each connection sends its next request when the last is answered (the server's peak). Open loop: the
 * i-th request is due at {@code start + i / rate} whatever came before, taken by the first free connection, and its
 * latency counts from when it was due, so a server that stalls is charged for every request it held up (wrk2's
 * correction for coordinated omission). Both stop by themselves after the given time.
 */
public final class LoadGenerator {

    private static final long HIGHEST_MICROS = 60_000_000L;

    private final InetSocketAddress address;
    private final byte[] request;

    public LoadGenerator(InetSocketAddress address, byte[] request) {
        this.address = address;
        this.request = request;
    }

    /** {@code connections} connections, each sending as fast as it is answered, for {@code duration}. */
    public LoadResult closedLoop(int connections, Duration duration) throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        return run(connections, duration, (conn, h, counts) -> {
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                exchange(conn, h, counts, t0);
            }
        });
    }

    /** {@code rate} requests a second for {@code duration}, spread over up to {@code connections} connections. */
    public LoadResult openLoop(double rate, int connections, Duration duration) throws InterruptedException {
        long start = System.nanoTime() + 10_000_000L;
        long total = (long) Math.floor(rate * duration.toNanos() / 1e9);
        AtomicLong next = new AtomicLong();
        return run(connections, duration, (conn, h, counts) -> {
            for (long i; (i = next.getAndIncrement()) < total; ) {
                long due = start + (long) (i * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                exchange(conn, h, counts, due);
            }
        });
    }

    private interface Loop {
        void run(LoadConnection[] conn, Histogram h, long[] counts) throws IOException;
    }

    private void exchange(LoadConnection[] conn, Histogram h, long[] counts, long from) throws IOException {
        try {
            if (conn[0] == null) {
                conn[0] = new LoadConnection(address);
            }
            int status = conn[0].exchange(request);
            if (status >= 200 && status < 300) {
                counts[0]++;
                h.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, (System.nanoTime() - from) / 1000)));
                return;
            }
        } catch (IOException e) {
            if (conn[0] != null) {
                conn[0].close();
            }
            conn[0] = null; // a new connection for the next request
        }
        counts[1]++;
    }

    private LoadResult run(int connections, Duration duration, Loop loop) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            Histogram h = new Histogram(HIGHEST_MICROS, 3);
            long[] c = new long[2];
            histograms.add(h);
            counts.add(c);
            threads.add(Thread.ofVirtual().start(() -> {
                LoadConnection[] conn = new LoadConnection[1];
                try {
                    loop.run(conn, h, c);
                } catch (IOException | RuntimeException e) {
                    c[1]++;
                } finally {
                    if (conn[0] != null) {
                        conn[0].close();
                    }
                }
            }));
        }
        long joinBy = System.nanoTime() + duration.toNanos() + 60_000_000_000L;
        for (Thread t : threads) {
            long left = joinBy - System.nanoTime();
            if (left > 0) {
                t.join(Duration.ofNanos(left));
            }
            t.interrupt();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        long ok = 0;
        long failed = 0;
        for (int i = 0; i < connections; i++) {
            // joined: each thread's counts are visible here
            all.add(histograms.get(i));
            ok += counts.get(i)[0];
            failed += counts.get(i)[1];
        }
        return new LoadResult(ok, failed, seconds, all);
    }
}
