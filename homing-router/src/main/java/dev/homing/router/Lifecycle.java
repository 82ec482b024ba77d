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

    void start() {
        try {
            for (Part p : parts) {
                p.start().run();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Closes every part, last first; one that fails to close does not keep the others running. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close().close();
            } catch (Exception e) {
                RuntimeException f = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    failure = f;
                } else {
                    failure.addSuppressed(f);
                }
            }
        }
        parts.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
