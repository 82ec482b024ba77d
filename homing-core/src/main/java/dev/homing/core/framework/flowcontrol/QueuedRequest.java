package dev.homing.core.framework.flowcontrol;

import dev.homing.core.framework.request.InferenceRequest;

/** A request waiting in a flow-control queue, as ordering policies see it. */
public interface QueuedRequest {

    InferenceRequest request();

    /** Ticker time it was enqueued. */
    long enqueueNanos();

    /** How long it may wait; 0 or less for no limit (it waits until dispatched or its client leaves). */
    long ttlNanos();

    /** Its size in bytes (the request body), what the byte limits count. */
    long byteSize();

    /** Enqueue order across the whole controller: breaks ties so that equal requests leave in arrival order. */
    long sequence();
}
