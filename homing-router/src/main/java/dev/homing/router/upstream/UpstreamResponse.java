package dev.homing.router.upstream;

import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * A pod's response: status and headers as received, and the body to read as it arrives. Close the body (read to its
 * end or not) to give the connection back or, before its end, to abort the request on the pod.
 */
public final class UpstreamResponse implements AutoCloseable {

    private final ResponseHead head;
    private final BodyStream body;

    UpstreamResponse(ResponseHead head, BodyStream body) {
        this.head = head;
        this.body = body;
    }

    public int status() {
        return head.status();
    }

    /** Headers by name as the pod spelt it, repeated ones grouped in order. */
    public Map<String, List<String>> headers() {
        return head.headers();
    }

    /** A header's first value, its name matched without regard to case; null when absent. */
    public String header(String name) {
        return head.first(name);
    }

    /** The body's length when the pod declared one, else -1 (chunked, or delimited by the connection's close). */
    public long contentLength() {
        return head.framing() == ResponseHead.Framing.FIXED || head.framing() == ResponseHead.Framing.NONE
                ? head.contentLength() : -1;
    }

    public InputStream body() {
        return body;
    }

    @Override
    public void close() {
        body.close();
    }
}
