package dev.homing.router.upstream;

import java.io.IOException;

/**
 * The pod took the request but sent no response head within the response timeout. Unlike a refused connection this
 * is not retried elsewhere: the pod may be working on it, and another would only do it again.
 */
public final class ResponseTimeoutException extends IOException {

    public ResponseTimeoutException(String message) {
        super(message);
    }
}
