package dev.homing.core.endpoint;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load the router itself has put on one endpoint, counted at pick time and released when the request ends.
 *
 * <p>Scraped metrics lag: a request sent after a scrape began is invisible in that scrape's numbers. Scorers that
 * read only scraped queue depth therefore see equal, stale scores during a burst and send it all to one pod (llm-d
 * router #298, #669). Each lease carries a dispatch sequence number; a scrape records the sequence at which it began,
 * and when it completes, leases at or below that mark are "reflected" (the pod's numbers include them). Those above it
 * are added on top of the scraped values by {@link EndpointState}.
 *
 * <p>Router replicas each count their own requests. When they share state, a syncer sets the requests the other
 * replicas have in flight here ({@link #setRemote}); {@link EndpointState} adds them to this router's, so that
 * replicas deciding in the same instant do not all see the same idle pod. A {@link LoadListener} hears every credit
 * and release, to publish them.
 */
public final class EndpointLoad {

    private final AtomicLong dispatchSequence = new AtomicLong();
    private final AtomicInteger inFlightRequests = new AtomicInteger();
    private final AtomicLong inFlightTokens = new AtomicLong();
    private final AtomicInteger unreflectedRequests = new AtomicInteger();
    private final AtomicLong unreflectedPromptTokens = new AtomicLong();
    private final AtomicLong pendingPrefillTokens = new AtomicLong();
    private final AtomicLong pendingPrefillWork = new AtomicLong();
    private final AtomicInteger pendingPrefillRequests = new AtomicInteger();
    private final ConcurrentSkipListMap<Long, Lease> unreflected = new ConcurrentSkipListMap<>();
    private final AtomicLong reflectedUpTo = new AtomicLong();
    private final String name;
    private final LoadListener listener;
    private volatile Remote remote = Remote.NONE;

    /** Other replicas' requests in flight to this endpoint, and their token estimate. */
    private record Remote(int requests, long tokens) {
        static final Remote NONE = new Remote(0, 0);
    }

    /**
     * @param name     the endpoint's name, as the listener is told it
     * @param listener hears every credit and release
     */
    public EndpointLoad(String name, LoadListener listener) {
        this.name = Objects.requireNonNull(name, "name");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Load counters nobody listens to, for an endpoint outside any pool. */
    public EndpointLoad() {
        this("", LoadListener.NONE);
    }

    /**
     * Credits one request at once.
     *
     * @param promptTokens prompt tokens that will need new KV blocks on this endpoint (an estimate)
     * @param totalTokens  prompt plus expected output tokens (an estimate), for token-load scoring
     */
    public Lease acquire(long promptTokens, long totalTokens) {
        return acquire(promptTokens, 0, totalTokens);
    }

    /**
     * Credits one request at once, knowing how much of its prompt the endpoint holds already.
     *
     * @param promptTokens prompt tokens that will need new KV blocks on this endpoint (an estimate)
     * @param cachedTokens prompt tokens before them that the endpoint holds (an estimate): the new ones attend to
     *                     them, so their prefill costs more the more there are
     * @param totalTokens  prompt plus expected output tokens (an estimate), for token-load scoring
     */
    public Lease acquire(long promptTokens, long cachedTokens, long totalTokens) {
        long tokens = Math.max(0, totalTokens);
        // First, so that a listener that breaks its contract and throws leaves nothing credited behind.
        listener.acquired(name, tokens);
        long uncached = Math.max(0, promptTokens);
        Lease lease = new Lease(this, dispatchSequence.incrementAndGet(), uncached, tokens,
                PrefillWork.of(uncached, Math.max(0, cachedTokens)));
        inFlightRequests.incrementAndGet();
        inFlightTokens.addAndGet(lease.totalTokens);
        unreflectedRequests.incrementAndGet();
        unreflectedPromptTokens.addAndGet(lease.promptTokens);
        pendingPrefillTokens.addAndGet(lease.promptTokens);
        pendingPrefillWork.addAndGet(lease.prefillWork);
        pendingPrefillRequests.incrementAndGet();
        unreflected.put(lease.sequence, lease);
        return lease;
    }

    void release(Lease lease) {
        inFlightRequests.decrementAndGet();
        inFlightTokens.addAndGet(-lease.totalTokens);
        prefillDone(lease);
        unreflect(lease);
        listener.released(name, lease.totalTokens);
    }

    void prefillDone(Lease lease) {
        if (lease.markPrefilled()) {
            pendingPrefillTokens.addAndGet(-lease.promptTokens);
            pendingPrefillWork.addAndGet(-lease.prefillWork);
            pendingPrefillRequests.decrementAndGet();
        }
    }

    private void unreflect(Lease lease) {
        if (lease.markReflected()) {
            unreflectedRequests.decrementAndGet();
            unreflectedPromptTokens.addAndGet(-lease.promptTokens);
            unreflected.remove(lease.sequence, lease);
        }
    }

    /** Call when a scrape of this endpoint begins; pass the result to {@link #scrapeCompleted(long)}. */
    public long scrapeStarted() {
        return dispatchSequence.get();
    }

    /** Every request dispatched before the scrape began is now part of the endpoint's own numbers. */
    public void scrapeCompleted(long mark) {
        if (reflectedUpTo.accumulateAndGet(mark, Math::max) != mark) {
            return; // an older scrape finished late: a newer one already reflected more
        }
        ConcurrentNavigableMap<Long, Lease> done = unreflected.headMap(mark, true);
        for (Map.Entry<Long, Lease> e : done.entrySet()) {
            unreflect(e.getValue());
        }
    }

    /** This router's requests in flight (not other replicas'). */
    public int inFlightRequests() {
        return inFlightRequests.get();
    }

    /** This router's estimated tokens in flight (not other replicas'). */
    public long inFlightTokens() {
        return inFlightTokens.get();
    }

    /**
     * Sets what the other replicas have in flight to this endpoint, replacing the last value: a syncer's latest
     * reading of the shared counts, or zeros when they cannot be read.
     */
    public void setRemote(int requests, long tokens) {
        remote = requests <= 0 && tokens <= 0 ? Remote.NONE : new Remote(Math.max(0, requests), Math.max(0, tokens));
    }

    /** Other replicas' requests in flight to this endpoint, as last set. */
    public int remoteInFlightRequests() {
        return remote.requests();
    }

    /** Other replicas' estimated tokens in flight to this endpoint, as last set. */
    public long remoteInFlightTokens() {
        return remote.tokens();
    }

    /** Requests in flight that the last completed scrape could not have seen. */
    public int unreflectedRequests() {
        return unreflectedRequests.get();
    }

    public long unreflectedPromptTokens() {
        return unreflectedPromptTokens.get();
    }

    /**
     * Prompt tokens of this router's requests that the endpoint has still to prefill: each request's uncached
     * estimate, from the pick until its first output token (or its end). Unlike scraped queue depth, it weighs a
     * queued 8k-token prompt as what it costs, and it is never stale.
     */
    public long pendingPrefillTokens() {
        return pendingPrefillTokens.get();
    }

    /**
     * The attention part of those prompts' prefill: Σ {@link PrefillWork#of} over the same requests. With
     * {@link #pendingPrefillTokens} it prices the backlog as a vLLM step prices it (dense work per token, plus
     * attention that grows with the context each token sees).
     */
    public long pendingPrefillWork() {
        return pendingPrefillWork.get();
    }

    /** How many of this router's requests to the endpoint have not had their first token. */
    public int pendingPrefillRequests() {
        return pendingPrefillRequests.get();
    }
}
