package dev.homing.bench.extproc;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Channel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * Load on an ext_proc picker from a client playing Envoy: each request is its headers, a chat body in three chunks
 * and, once routed, a streamed response of {@code responseChunks} SSE chunks echoed one by one. What is timed is the
 * picker's decision as a gateway waits for it: from the last request chunk sent to the header mutation received.
 * Open loop at a fixed rate (arrivals do not wait for answers, so a slow picker shows in the latency), or closed
 * loop at a fixed concurrency for the peak rate.
 */
public final class ExtProcLoad {

    /**
     * @param completed exchanges that ran to the end of their response
     * @param errors    exchanges the picker refused or broke
     * @param seconds   wall time of the run
     */
    public record Result(long completed, long errors, double seconds, double p50Micros, double p99Micros,
                         double p999Micros, double maxMicros) {
        public double perSecond() {
            return completed / seconds;
        }
    }

    private final String model;
    private final int bodyBytes;
    private final int responseChunks;

    /**
     * @param model          the model the bodies name (one the pool serves)
     * @param bodyBytes      the chat body's size (the benchmark: 4 KB)
     * @param responseChunks SSE chunks in each response (20)
     */
    public ExtProcLoad(String model, int bodyBytes, int responseChunks) {
        this.model = model;
        this.bodyBytes = bodyBytes;
        this.responseChunks = responseChunks;
    }

    /** Requests at {@code rate} per second for {@code duration}, each on its own virtual thread. */
    public Result openLoop(Channel channel, int rate, Duration duration, long seed) {
        ConcurrentHistogram latency = new ConcurrentHistogram(3);
        AtomicLong completed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long n = Math.max(1, rate * duration.toMillis() / 1000);
        long interval = 1_000_000_000L / Math.max(1, rate);
        SplittableRandom random = new SplittableRandom(seed);
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (long i = 0; i < n; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                byte[] body = body(random.nextLong());
                pool.execute(() -> run(channel, body, latency, completed, errors));
            }
            pool.shutdown();
            awaitQuietly(pool);
        }
        return result(latency, completed, errors, (System.nanoTime() - start) / 1e9);
    }

    /** {@code concurrency} clients, each sending its next request when the last is answered, for {@code duration}. */
    public Result closedLoop(Channel channel, int concurrency, Duration duration, long seed) {
        ConcurrentHistogram latency = new ConcurrentHistogram(3);
        AtomicLong completed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < concurrency; c++) {
                SplittableRandom random = new SplittableRandom(seed + c);
                pool.execute(() -> {
                    while (System.nanoTime() - end < 0) {
                        run(channel, body(random.nextLong()), latency, completed, errors);
                    }
                });
            }
            pool.shutdown();
            awaitQuietly(pool);
        }
        return result(latency, completed, errors, (System.nanoTime() - start) / 1e9);
    }

    private void run(Channel channel, byte[] body, ConcurrentHistogram latency, AtomicLong completed,
                     AtomicLong errors) {
        try (ExtProcCall call = ExtProcCall.open(channel)) {
            long nanos = exchange(call, body);
            latency.recordValue(Math.max(1, nanos / 1000));
            completed.incrementAndGet();
        } catch (RuntimeException e) {
            errors.incrementAndGet();
        }
    }

    /** One request as Envoy streams it; the nanoseconds from its last body chunk to the picker's header mutation. */
    long exchange(ExtProcCall call, byte[] body) {
        call.send(EnvoyMessages.requestHeaders(EnvoyMessages.post("/v1/chat/completions", body.length), false));
        int third = body.length / 3;
        call.send(EnvoyMessages.requestBody(body, 0, third, false));
        call.send(EnvoyMessages.requestBody(body, third, 2 * third, false));
        call.send(EnvoyMessages.requestBody(body, 2 * third, body.length, true));
        long sent = System.nanoTime();
        ProcessingResponse routed = call.next();
        long decided = System.nanoTime();
        if (!routed.hasRequestHeaders()) {
            throw new IllegalStateException("the picker refused: " + routed.getImmediateResponse().getBody()
                    .toStringUtf8());
        }
        call.bodyUntilEnd(true);
        call.send(EnvoyMessages.responseHeaders(200, "text/event-stream", false));
        call.next();
        for (int i = 0; i < responseChunks; i++) {
            boolean last = i == responseChunks - 1;
            call.send(EnvoyMessages.responseBody(chunk(i, last), last));
            call.next();
        }
        call.halfClose();
        call.awaitEnd(5_000);
        return decided - sent;
    }

    /** A chat body of about {@code bodyBytes}: a system prompt shared by a few requests, a question of their own. */
    byte[] body(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder system = new StringBuilder("You are assistant number ").append(r.nextInt(8)).append(". ");
        StringBuilder question = new StringBuilder();
        while (system.length() + question.length() < bodyBytes - 160) {
            (system.length() < bodyBytes / 2 ? system : question).append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        }
        String json = "{\"model\":\"" + model + "\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"max_tokens\":" + responseChunks + ",\"messages\":[{\"role\":\"system\",\"content\":\""
                + system + "\"},{\"role\":\"user\",\"content\":\"" + question + "\"}]}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private ByteString chunk(int i, boolean last) {
        String delta = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"model\":\"" + model
                + "\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token" + i + "\"}}]}\n\n";
        if (last) {
            delta += "data: {\"id\":\"chatcmpl-bench\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + bodyBytes / 4
                    + ",\"completion_tokens\":" + responseChunks + "}}\n\ndata: [DONE]\n\n";
        }
        return ByteString.copyFromUtf8(delta);
    }

    private static Result result(ConcurrentHistogram h, AtomicLong completed, AtomicLong errors, double seconds) {
        return new Result(completed.get(), errors.get(), seconds, h.getValueAtPercentile(50),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
    }

    private static void awaitQuietly(ExecutorService pool) {
        try {
            if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static final String[] WORDS = ("the of and to in is was for on that with as by at from his her it an were "
            + "are which this be or had not but their have one they all been has its more other would about when "
            + "time will some who there into only could these new two first may any after most such over also "
            + "through where then between used many those what well under both system model cache prefix token "
            + "request pod router decode prefill latency throughput batch queue memory block").split(" ");
}
