package dev.homing.bench.dataplane;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Many SSE streams open at once through a server, each on its own connection and virtual thread: every read that
 * brings bytes is an arrival, and the time between arrivals is the gap a user sees between tokens. A stream is done at
 * {@code data: [DONE]} and the chunked body's end; one that breaks, or ends without it, failed.
 */
public final class StreamLoad {

    /** What the streams saw: how many completed, the gaps between arrivals and each stream's largest, in µs. */
    public record Result(int completed, int failed, Map<String, Integer> whyFailed, Histogram gapMicros,
                         Histogram largestGapMicros,
                         Histogram firstChunkMicros) {
    }


    private final InetSocketAddress address;
    private final byte[] request;

    public StreamLoad(InetSocketAddress address, byte[] request) {
        this.address = address;
        this.request = request;
    }

    /**
     * Opens {@code streams} streams, {@code rampPerSecond} a second, then waits for all to end (at most
     * {@code timeout}); {@code whileOpen} runs once every stream has started (to measure the server meanwhile).
     */
    public Result run(int streams, int rampPerSecond, Duration timeout, Runnable whileOpen)
            throws InterruptedException {
        Histogram gaps = new Histogram(60_000_000L, 3);
        Histogram largest = new Histogram(60_000_000L, 3);
        Histogram first = new Histogram(60_000_000L, 3);
        AtomicInteger completed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Map<String, Integer> why = new ConcurrentHashMap<>();
        CountDownLatch started = new CountDownLatch(streams);
        CountDownLatch done = new CountDownLatch(streams);
        List<Thread> threads = new ArrayList<>(streams);
        long t0 = System.nanoTime();
        for (int i = 0; i < streams; i++) {
            long due = t0 + (long) (i * 1e9 / Math.max(1, rampPerSecond));
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(Duration.ofNanos(wait));
                    }
                    if (one(gaps, largest, first, started)) {
                        completed.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        why.merge("ended before data: [DONE]", 1, Integer::sum);
                    }
                } catch (IOException | InterruptedException | RuntimeException e) {
                    failed.incrementAndGet();
                    why.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
                } finally {
                    done.countDown();
                }
            }));
        }
        if (started.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            whileOpen.run();
        }
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            threads.forEach(Thread::interrupt);
        }
        return new Result(completed.get(), failed.get(), Map.copyOf(why), gaps, largest, first);
    }

    private boolean one(Histogram gaps, Histogram largest, Histogram first, CountDownLatch started)
            throws IOException {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(address, 10_000);
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            long sent = System.nanoTime();
            out.write(request);
            out.flush();
            byte[] buf = new byte[16 * 1024];
            ChunkedStreamEnd end = new ChunkedStreamEnd();
            long last = -1;
            long maxGap = 0;
            boolean counted = false;
            try {
                while (true) {
                    int n;
                    try {
                        n = in.read(buf);
                    } catch (java.net.SocketTimeoutException e) {
                        throw new java.net.SocketTimeoutException(last < 0 ? "no byte within the read timeout"
                                : "stalled mid-stream for the read timeout");
                    }
                    if (n < 0) {
                        return false;
                    }
                    long now = System.nanoTime();
                    if (last < 0) {
                        synchronized (first) {
                            first.recordValue(Math.min(60_000_000L, (now - sent) / 1000));
                        }
                        started.countDown();
                        counted = true;
                    } else {
                        long gap = (now - last) / 1000;
                        synchronized (gaps) {
                            gaps.recordValue(Math.min(60_000_000L, gap));
                        }
                        maxGap = Math.max(maxGap, gap);
                    }
                    last = now;
                    if (end.accept(buf, 0, n)) {
                        synchronized (largest) {
                            largest.recordValue(Math.min(60_000_000L, maxGap));
                        }
                        return true;
                    }
                }
            } finally {
                if (!counted) {
                    started.countDown();
                }
            }
        }
    }
}
