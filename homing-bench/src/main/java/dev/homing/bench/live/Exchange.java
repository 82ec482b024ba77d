package dev.homing.bench.live;

import dev.homing.bench.workload.WorkloadRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/**
 * One request of a live run, from sending to its outcome. The outcome is settled once, by whichever comes first:
 * the response ending (or failing), the request's timeout, or the run's deadline; a late settler changes nothing.
 */
final class Exchange {

    final int index;
    final WorkloadRequest request;
    /** Completes once with the outcome, or with null when the request was never sent (the deadline came first). */
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    private final ResponseStream stream = new ResponseStream(System::nanoTime);
    private volatile long sentNanos;
    private volatile boolean marked;
    private volatile CompletableFuture<HttpResponse<Void>> http;

    Exchange(int index, WorkloadRequest request) {
        this.index = index;
        this.request = request;
    }

    /** Marks the send time; from here on the exchange may be aborted. */
    void markSent() {
        sentNanos = System.nanoTime();
        marked = true;
    }

    /** Whether it went out (or was about to); a turn still waiting for its predecessor or its gap has not. */
    boolean wasSent() {
        return marked;
    }

    void send(HttpClient client, HttpRequest httpRequest) {
        if (outcome.isDone()) {
            return; // aborted before it went out
        }
        try {
            http = client.sendAsync(httpRequest, stream::handler);
        } catch (RuntimeException e) {
            settle(false);
            return;
        }
        http.whenComplete((response, failure) -> settle(failure == null));
    }

    void skip() {
        outcome.complete(null);
    }

    /** Settles as not served (timeout, deadline) and closes the connection. */
    void abort() {
        if (settle(false)) {
            stream.cancel();
            CompletableFuture<HttpResponse<Void>> h = http;
            if (h != null) {
                h.cancel(true);
            }
        }
    }

    private boolean settle(boolean complete) {
        long end = System.nanoTime();
        ResponseStream.Snapshot s = stream.snapshot();
        int status = !complete ? 0 : s.status() == 200 && s.errorStatus() != 0 ? s.errorStatus() : s.status();
        return outcome.complete(new Outcome(this, sentNanos, s.firstTextNanos() < 0 ? -1 : s.firstTextNanos(),
                complete ? end : -1, status, s));
    }

    /**
     * @param endNanos when the response ended, or -1 when it never completed
     */
    record Outcome(Exchange exchange, long sentNanos, long firstTextNanos, long endNanos, int status,
                   ResponseStream.Snapshot read) {
    }
}
