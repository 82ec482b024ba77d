package dev.homing.bench.live;

import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.workload.RequestBodies;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** One live run: the dispatcher (the caller's thread), the requests in flight, and the bounds on both. */
final class LiveRun implements AutoCloseable {

    private final URI baseUrl;
    private final Workload workload;
    private final String label;
    private final ProgressListener progress;
    private final Duration requestTimeout;
    private final Map<String, String> headers;
    private final boolean tokenIds;
    private final HttpClient client;
    private final ScheduledThreadPoolExecutor timer;
    private final long startNanos;
    private final long deadlineNanos;
    private final Set<Exchange> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private volatile boolean stopping;

    LiveRun(URI baseUrl, Workload workload, String label, ProgressListener progress, Duration requestTimeout,
            Duration deadline, Map<String, String> headers) {
        this.baseUrl = baseUrl;
        this.workload = workload;
        this.label = label;
        this.progress = progress;
        this.requestTimeout = requestTimeout;
        this.headers = headers;
        this.tokenIds = "token_ids".equals(workload.parameters().get(Workloads.PROMPTS_AS));
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "live-run-timeouts");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        this.startNanos = System.nanoTime();
        this.deadlineNanos = startNanos + Math.min(deadline.toNanos(), Long.MAX_VALUE / 4);
    }

    PolicyRun execute() {
        List<WorkloadRequest> requests = workload.requests();
        progress.started(label, requests.size());
        List<Exchange> exchanges = new ArrayList<>(requests.size());
        // Each exchange's outcome, once it has been counted: the run ends after the last count, not the last outcome.
        List<CompletableFuture<?>> counted = new ArrayList<>(requests.size());
        Map<Integer, CompletableFuture<Exchange.Outcome>> lastTurn = new HashMap<>();
        Semaphore slots = workload.closedLoop() ? new Semaphore(workload.concurrency()) : null;
        for (int i = 0; i < requests.size(); i++) {
            WorkloadRequest r = requests.get(i);
            // A session's later turn is timed by its predecessor's answer, not by the dispatcher's clock.
            boolean onTime = slots != null ? acquire(slots)
                    : r.followsByGap() && lastTurn.containsKey(r.conversation()) ? System.nanoTime() < deadlineNanos
                    : sleepUntil(startNanos + Math.max(0, r.arrivalNanos()));
            if (!onTime) {
                break;
            }
            Exchange x = new Exchange(i, r);
            exchanges.add(x);
            counted.add(x.outcome.whenComplete((o, e) -> {
                count(o);
                if (slots != null) {
                    slots.release();
                }
            }));
            CompletableFuture<Exchange.Outcome> previous = r.conversation() >= 0 ? lastTurn.put(r.conversation(), x.outcome) : null;
            if (previous != null && r.followsByGap()) {
                previous.whenComplete((o, e) -> sendAfterGap(x, o));
            } else if (previous == null || previous.isDone()) {
                send(x);
            } else {
                previous.whenComplete((o, e) -> send(x));
            }
        }
        awaitAll(exchanges, counted);
        long wall = System.nanoTime() - startNanos;
        List<Exchange.Outcome> outcomes = exchanges.stream().map(x -> x.outcome.join()).filter(o -> o != null)
                .toList();
        progress.finished(sent.get(), done.get(), failed.get());
        return new PolicyRun(label, workload.name(), records(outcomes), List.of(), workload.stageQps(), wall);
    }

    /** Sends now, unless the run is over; a turn comes here once its previous turn has ended. */
    private void send(Exchange x) {
        if (stopping || System.nanoTime() >= deadlineNanos) {
            x.skip();
            return;
        }
        WorkloadRequest r = x.request;
        HttpRequest request;
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(Endpoints.of(baseUrl, r.prompt()))
                    .timeout(requestTimeout)
                    .header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(RequestBodies.of(r, r.model(), tokenIds)));
            headers.forEach(b::header);
            request = b.build();
        } catch (RuntimeException e) {
            // Never thrown on a thread nobody watches: the request counts as failed, and the run goes on.
            x.markSent();
            sent.incrementAndGet();
            x.abort();
            return;
        }
        x.markSent();
        inFlight.add(x);
        progress.progress(sent.incrementAndGet(), done.get(), failed.get());
        x.send(client, request);
        ScheduledFuture<?> timeout = timer.schedule(x::abort, requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        x.outcome.whenComplete((o, e) -> {
            timeout.cancel(false);
            inFlight.remove(x);
        });
    }

    /**
     * Sends a session's turn its gap after the previous turn's answer: from when that answer ended (or was given up
     * on), so a turn registered after its predecessor finished still keeps the gap rather than waiting it again.
     */
    private void sendAfterGap(Exchange x, Exchange.Outcome previous) {
        long ended = previous == null ? System.nanoTime()
                : previous.endNanos() >= 0 ? previous.endNanos() : System.nanoTime();
        long delay = ended + x.request.gapNanos() - System.nanoTime();
        if (delay <= 0) {
            send(x);
            return;
        }
        try {
            timer.schedule(() -> send(x), delay, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            x.skip(); // the run is closing
        }
    }

    /** Counts a settled exchange; one never sent (null) is not counted. */
    private void count(Exchange.Outcome o) {
        if (o == null) {
            return;
        }
        int f = o.status() == 200 ? failed.get() : failed.incrementAndGet();
        progress.progress(sent.get(), done.incrementAndGet(), f);
    }

    /** Waits for every outcome until the deadline, then cuts off what is left. */
    private void awaitAll(List<Exchange> exchanges, List<CompletableFuture<?>> counted) {
        CompletableFuture<Void> all = CompletableFuture.allOf(counted.toArray(CompletableFuture[]::new));
        try {
            all.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            return;
        } catch (TimeoutException e) {
            // the deadline: below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("an outcome failed", e.getCause());
        }
        stopping = true;
        // Aborting settles each exchange; turns waiting on them, or on their gap, are then skipped, so this ends.
        while (!all.isDone()) {
            List.copyOf(inFlight).forEach(Exchange::abort);
            exchanges.stream().filter(x -> !x.wasSent()).forEach(Exchange::skip);
            try {
                all.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // another round
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchanges.forEach(x -> {
                    x.abort();
                    x.skip();
                });
            }
        }
    }

    private boolean sleepUntil(long at) {
        while (true) {
            long now = System.nanoTime();
            if (now >= deadlineNanos || Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (now >= at) {
                return true;
            }
            LockSupport.parkNanos(Math.min(at, deadlineNanos) - now);
        }
    }

    private boolean acquire(Semaphore slots) {
        try {
            return slots.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * vLLM reports {@code cached_tokens} only when some were cached, and only when the server enables it; so a
     * response without it means 0 when any response of the run carried it, and unknown (-1) when none did.
     */
    private List<RequestRecord> records(List<Exchange.Outcome> outcomes) {
        boolean cachedReported = outcomes.stream().anyMatch(o -> o.read().cachedSeen());
        List<RequestRecord> records = new ArrayList<>(outcomes.size());
        for (Exchange.Outcome o : outcomes) {
            WorkloadRequest r = o.exchange().request;
            ResponseStream.Snapshot s = o.read();
            int promptTokens = s.promptTokens() >= 0 ? s.promptTokens()
                    : r.prompt().tokens() != null ? r.prompt().tokens().length : 0;
            int cached = s.cachedSeen() ? s.cachedTokens() : s.usageSeen() && cachedReported ? 0 : -1;
            int output = s.completionTokens() >= 0 ? s.completionTokens() : s.textEvents();
            records.add(new RequestRecord(r.id(), r.stage(), o.sentNanos() - startNanos, s.pod(), o.status(),
                    o.firstTextNanos() < 0 ? -1 : o.firstTextNanos() - o.sentNanos(),
                    o.endNanos() < 0 ? -1 : o.endNanos() - o.sentNanos(), promptTokens, cached, output));
        }
        return records;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        client.shutdownNow();
    }
}
