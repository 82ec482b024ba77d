package dev.homing.router;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The router's parts that run or hold resources, in the order the router builds them: {@link #start()} starts them in
 * that order and {@link #close()} closes them in reverse, so no part outlives a part it uses. When a part cannot
 * start, every part is closed: a router that fails to start leaves nothing running.
 */
final class Lifecycle implements AutoCloseable {

    private record Part(Runnable start, AutoCloseable close) {
    }

    private final List<Part> parts = new ArrayList<>();

    /** Adds a part that holds resources from its construction and needs no start (a client, a cache). */
    <T extends AutoCloseable> T add(T part) {
        return add(part, p -> {
        });
    }

    /** Adds a part that runs only once started. */
    <T extends AutoCloseable> T add(T part, Consumer<? super T> start) {
        parts.add(new Part(() -> start.accept(part), part));
        return part;
    }

    /** Starts every part in order; when one cannot (whatever it throws, an Error too), closes them all and rethrows. */
    void start() {
        try {
            for (Part p : parts) {
                p.start().run();
            }
        } catch (Throwable e) {
            closeAfter(e);
            throw e;
        }
    }

    /**
     * Closes every part, last first, because of {@code failure}: what fails to close is suppressed in it, so that the
     * error reported stays the one that stopped the router (a config's file:line, a port in use), not its cleanup's.
     */
    void closeAfter(Throwable failure) {
        closeEach(failure);
    }

    /** Closes every part, last first; one that fails to close does not keep the others running. */
    @Override
    public void close() {
        Throwable failure = closeEach(null);
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** @return {@code into}, or the first failure to close when it is null, the later ones suppressed in it */
    private Throwable closeEach(Throwable into) {
        Throwable first = into;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close().close();
            } catch (Throwable t) {
                if (first == null) {
                    first = t;
                } else if (first != t) {
                    first.addSuppressed(t);
                }
            }
        }
        parts.clear();
        return first;
    }
}
