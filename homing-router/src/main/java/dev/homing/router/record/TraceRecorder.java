package dev.homing.router.record;

import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RoutingFields;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.hashing.LongHashFunction;

/**
 * {@code homing serve --record}: writes a Mooncake-format trace ({@link TraceLine}) of the requests the router routed,
 * one line per request that completed, whichever data plane (HTTP proxy or ext_proc) carried it. It is a response
 * hook appended to every policy the director runs, so it hears every dispatch's end and nothing else of the router
 * changes.
 *
 * <p>A request's end costs it one {@code offer} to a bounded queue: everything else (session id, block keys,
 * numbering, formatting, writing) is done by one writer thread. A full queue (or one holding
 * {@link RecordOptions#maxQueuedBytes} of bodies) drops the record and counts it in
 * {@code homing_record_dropped_total}; nothing ever waits for the disk. Lines are flushed once the queue is empty and
 * at least every second.
 *
 * <p>Recorded: completions, chat completions and Responses API requests that ended naturally with a 2xx status. Failed,
 * refused or cut-off requests are skipped (Mooncake's format has no status, and a replay would send them as if they
 * had been served): {@code homing_record_skipped_total{reason}} counts them. {@code input_length} and
 * {@code output_length} are the pod's {@code usage}; a response without usage (a stream that did not ask
 * {@code include_usage}) is recorded with the router's prompt token count (exact with a token producer, else its
 * estimate) and the request's {@code max_tokens}, or skipped without one.
 *
 * <p>Privacy: no text, token, header value or raw hash is written. Block keys and session ids are numbered per file
 * in first-seen order ({@link Renumbering}); equal numbers mean equal prefixes (or sessions) within one file, and
 * nothing across files. Timestamps are ms since the first record of the file arrived (a request in flight when the
 * file began is stamped 0), so rotation restarts the clock and the numbering together, and each file replays alone.
 */
public final class TraceRecorder implements ResponseHooks, AutoCloseable {

    public static final String TYPE = "trace-recorder";
    private static final System.Logger LOG = System.getLogger(TraceRecorder.class.getName());
    private static final LongHashFunction XX = LongHashFunction.xx();
    private static final long FLUSH_NANOS = Duration.ofSeconds(1).toNanos();

    private final RecordOptions options;
    private final BlockingQueue<Completed> queue;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Counter recorded;
    private final Counter dropped;
    private final Counter skipped;
    private final Thread writer;
    private volatile boolean closing;

    // writer thread only
    private RotatingTraceFile file;
    private final Renumbering blocks;
    private final Renumbering sessions;
    private long epochNanos = Long.MIN_VALUE;
    private double fileBytesPerToken = Double.NaN;
    private double bytesSeen;
    private double tokensSeen;
    private boolean dirty;
    private boolean failedOnce;

    public TraceRecorder(RecordOptions options, PrometheusRegistry registry) {
        this.options = options;
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        this.blocks = new Renumbering(options.maxIds());
        this.sessions = new Renumbering(options.maxIds());
        this.recorded = Counter.builder().name("homing_record_lines_total")
                .help("Requests written to the --record trace").register(registry);
        this.dropped = Counter.builder().name("homing_record_dropped_total")
                .help("Completed requests not recorded because the recorder's queue was full or its file failed")
                .register(registry);
        this.skipped = Counter.builder().name("homing_record_skipped_total")
                .help("Completed requests the recorder leaves out, by reason: failed (not a natural 2xx end),"
                        + " not_generative (an API that makes no completion), no_output (no usage, no max_tokens)")
                .labelNames("reason").register(registry);
        for (String r : List.of("failed", "not_generative", "no_output")) {
            skipped.initLabelValues(r);
        }
        this.writer = Thread.ofPlatform().name("homing-record").daemon().unstarted(this::run);
    }

    /** Opens the trace (rotating away one an earlier run left) and starts the writer. */
    public void start() {
        try {
            file = new RotatingTraceFile(options.file(), options.maxBytes(), options.maxFiles());
        } catch (IOException e) {
            throw new UncheckedIOException("--record " + options.file() + ": cannot open: " + e.getMessage(), e);
        }
        writer.start();
    }

    /** The policy with this recorder as its last response hook. */
    public RoutingPolicy appendTo(RoutingPolicy p) {
        List<ResponseHooks> hooks = new ArrayList<>(p.responseHooks());
        hooks.add(this);
        return p.withResponseHooks(hooks);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String name() {
        return TYPE;
    }

    @Override
    public void onComplete(Cycle cycle, SchedulingResult result, Outcome outcome) {
        if (cycle.isDryRun()) {
            return;
        }
        RoutingFields f = cycle.request().fields();
        if (f.api() != ApiKind.COMPLETIONS && f.api() != ApiKind.CHAT_COMPLETIONS && f.api() != ApiKind.RESPONSES) {
            skipped.labelValues("not_generative").inc();
            return;
        }
        if (!outcome.succeeded()) {
            skipped.labelValues("failed").inc();
            return;
        }
        PromptTokens tokens = cycle.get(PromptTokens.KEY);
        long input = outcome.promptTokens() >= 0 ? outcome.promptTokens() : cycle.promptTokens();
        long output = outcome.completionTokens() >= 0 ? outcome.completionTokens() : f.maxTokens();
        if (output < 0) {
            skipped.labelValues("no_output").inc();
            return;
        }
        offer(new Completed(cycle.startNanos(), cycle.request(), cycle.request().targetModel(),
                tokens == null ? null : tokens.ids(), input, output));
    }

    /** Queues a record without waiting; counts it dropped when the queue is full. */
    void offer(Completed c) {
        long bytes = c.bodyBytes();
        if (closing || queuedBytes.addAndGet(bytes) > options.maxQueuedBytes() && queuedBytes.get() > bytes) {
            queuedBytes.addAndGet(-bytes);
            dropped.inc();
            return;
        }
        if (!queue.offer(c)) {
            queuedBytes.addAndGet(-bytes);
            dropped.inc();
        }
    }

    private void run() {
        long lastFlush = System.nanoTime();
        while (true) {
            Completed c;
            try {
                c = queue.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                c = null;
                closing = true;
            }
            if (c != null) {
                queuedBytes.addAndGet(-c.bodyBytes());
                write(c);
            }
            long now = System.nanoTime();
            if (dirty && (queue.isEmpty() || now - lastFlush >= FLUSH_NANOS)) {
                flush();
                lastFlush = now;
            }
            if (closing && queue.isEmpty()) {
                return;
            }
        }
    }

    private void write(Completed c) {
        try {
            calibrate(c);
            TraceLine line = line(c);
            String json = line.toJson();
            if (file.full(json.length())) {
                rotate();
                json = line(c).toJson();
            }
            file.write(json);
            dirty = true;
            recorded.inc();
        } catch (IOException | RuntimeException e) {
            dropped.inc();
            if (!failedOnce) {
                failedOnce = true;
                LOG.log(System.Logger.Level.WARNING, "--record " + options.file() + ": cannot write: " + e, e);
            }
        }
    }

    /**
     * One line in this file's numbering. A record whose new keys would pass the numbering's bound starts a new file
     * first ({@link #blocks} reports itself full and the caller rotates); the rare record with more distinct blocks
     * than the bound itself is cut to what fits.
     */
    private TraceLine line(Completed c) throws IOException {
        long[] keys = PromptBlocks.keys(c.request().fields(), c.model(), c.tokens(), c.inputLength(),
                fileBytesPerToken);
        int fresh = 0;
        for (long k : keys) {
            fresh += blocks.contains(k) ? 0 : 1;
        }
        String session = SessionIds.of(c.request());
        if (!blocks.fits(fresh) || (session != null && !sessions.fits(1))) {
            if (blocks.size() > 0 || sessions.size() > 0) {
                rotate();
            }
        }
        if (epochNanos == Long.MIN_VALUE) {
            epochNanos = c.arrivalNanos();
        }
        int[] ids = new int[keys.length];
        int n = 0;
        for (long k : keys) {
            if (!blocks.fits(1) && !blocks.contains(k)) {
                break;
            }
            ids[n++] = blocks.number(k);
        }
        if (n < ids.length) {
            ids = java.util.Arrays.copyOf(ids, n);
        }
        String sessionId = session == null ? null
                : String.valueOf(sessions.number(XX.hashChars(session)));
        long ms = Math.max(0, (c.arrivalNanos() - epochNanos) / 1_000_000);
        return new TraceLine(ms, c.inputLength(), c.outputLength(), ids, sessionId);
    }

    /**
     * Without tokens, a file's byte blocks are {@code 512 × bytesPerToken} bytes, one value for the whole file: the
     * mean over every request recorded so far, fixed when the file gets its first line.
     */
    private void calibrate(Completed c) {
        if (c.tokens() == null && c.inputLength() > 0) {
            bytesSeen += c.request().fields().prefixLength();
            tokensSeen += c.inputLength();
        }
        if (Double.isNaN(fileBytesPerToken) && tokensSeen > 0 && bytesSeen > 0) {
            fileBytesPerToken = bytesSeen / tokensSeen;
        }
        if (Double.isNaN(fileBytesPerToken) && c.tokens() == null) {
            fileBytesPerToken = 4.0; // a body with no prompt bytes: the approximate producer's four bytes a token
        }
    }

    private void rotate() throws IOException {
        file.rotate();
        blocks.clear();
        sessions.clear();
        epochNanos = Long.MIN_VALUE;
        fileBytesPerToken = tokensSeen > 0 && bytesSeen > 0 ? bytesSeen / tokensSeen : Double.NaN;
    }

    private void flush() {
        try {
            file.flush();
            dirty = false;
        } catch (IOException e) {
            if (!failedOnce) {
                failedOnce = true;
                LOG.log(System.Logger.Level.WARNING, "--record " + options.file() + ": cannot flush: " + e, e);
            }
        }
    }

    /** Writes what is queued, flushes and closes the file. */
    @Override
    public void close() {
        closing = true;
        if (writer.isAlive()) {
            try {
                writer.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (file != null && !writer.isAlive()) {
            try {
                file.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "--record " + options.file() + ": cannot close: " + e, e);
            }
        }
    }
}
