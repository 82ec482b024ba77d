package dev.homing.bench.soak;

import java.io.IOException;
import java.util.List;

/** The pods behind the router, as the soak kills and restarts them (the caller runs them: processes, say). */
public interface Fleet {

    /** The pods' names, in the order {@link #kill} and {@link #restart} number them. */
    List<String> names();

    /** Kills pod {@code i} hard: it ends at once, and the system closes its sockets; returns once it is gone. */
    void kill(int i) throws IOException, InterruptedException;

    /** Starts pod {@code i} again on the same port; returns once it serves. */
    void restart(int i) throws IOException, InterruptedException;
}
