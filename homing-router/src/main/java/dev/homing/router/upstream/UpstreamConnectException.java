package dev.homing.router.upstream;

import java.io.IOException;

/** No connection to the pod could be opened (refused, unreachable, or not within the connect timeout). */
public final class UpstreamConnectException extends IOException {

    public UpstreamConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
