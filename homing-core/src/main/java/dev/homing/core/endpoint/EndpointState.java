package dev.homing.core.endpoint;

/**
 * One endpoint as a scheduling cycle sees it: identity, the last scrape, and the router's own live load counters.
 *
 * @param index position in its {@link EndpointSnapshot}, so per-cycle data can live in plain arrays
 * @param creditUnreflected whether load the router sent since the last scrape is added to the scraped values
 */
public record EndpointState(Endpoint endpoint, int index, EndpointMetrics metrics, EndpointLoad load,
                            boolean creditUnreflected) {

    public String name() {
        return endpoint.name();
    }

    /**
     * Waiting requests: scraped, plus, when the endpoint was already queueing, the requests this router sent that the
     * scrape could not have seen yet (they queue behind the others). An endpoint that was not queueing seats new
     * requests at once, so they run rather than wait; the in-flight counters carry their load instead.
     */
    public int waitingQueueSize() {
        int scraped = Math.max(0, metrics.waiting());
        return creditUnreflected && scraped > 0 ? scraped + load.unreflectedRequests() : scraped;
    }

    /**
     * Waiting requests as the pool's saturation counts them: scraped, plus every request this router sent that the
     * scrape could not have seen, queueing or not. Between two scrapes nothing else tells how many of them found a seat
     * (an idle endpoint seats them, a full one queues them), so until the next scrape each counts as queued: the
     * cautious side for admission, which would otherwise read an endpoint that showed an empty queue as having room
     * however many requests went to it since, and let a whole backlog through between two scrapes. The filter's
     * per-endpoint judgement keeps {@link #waitingQueueSize}.
     */
    public int queuedOrUnseen() {
        int scraped = Math.max(0, metrics.waiting());
        return creditUnreflected ? scraped + load.unreflectedRequests() : scraped;
    }

    public int runningRequests() {
        return Math.max(0, metrics.running());
    }

    /** KV-cache usage in 0..1: scraped, plus the blocks that unseen requests will fill when the capacity is known. */
    public double kvCacheUsage() {
        double scraped = Double.isNaN(metrics.kvCacheUsage()) ? 0 : metrics.kvCacheUsage();
        long capacity = metrics.kvCapacityTokens();
        if (!creditUnreflected || capacity <= 0) {
            return clamp01(scraped);
        }
        return clamp01(scraped + (double) load.unreflectedPromptTokens() / capacity);
    }

    /** Requests in flight to the endpoint: this router's, plus other replicas' when they share their counts. */
    public int inFlightRequests() {
        return load.inFlightRequests() + load.remoteInFlightRequests();
    }

    /** Estimated tokens in flight to the endpoint: this router's, plus other replicas' when shared. */
    public long inFlightTokens() {
        return load.inFlightTokens() + load.remoteInFlightTokens();
    }

    /** Prompt tokens this router sent that the endpoint has not finished prefilling. */
    public long pendingPrefillTokens() {
        return load.pendingPrefillTokens();
    }

    private static double clamp01(double v) {
        return v < 0 ? 0 : Math.min(1, v);
    }
}
