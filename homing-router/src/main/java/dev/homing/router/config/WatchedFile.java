package dev.homing.router.config;

import dev.homing.core.config.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file the router follows (the config file, the endpoints file), looked at each poll. A change is acted on only
 * once two consecutive reads agree on it: a file caught half-written can parse (an endpoints list cut after its first
 * entries would drop the pods after them), and the writer is rarely done after one poll but seldom still writing two
 * polls later. A change is acted on once: a refused one is not tried again until the file changes, and a failure is
 * logged once per distinct message, not every poll. Writers that replace the file atomically (a temporary file
 * renamed over it) are never seen half-way.
 */
public final class WatchedFile {

    /** What a settled change is used for. */
    @FunctionalInterface
    public interface Use {
        /** @throws ConfigException naming the file and line when the text cannot be used; nothing was changed then */
        void apply(String text) throws ConfigException;
    }

    /** One read: the text, or why there was none. */
    private record Seen(String text, String failure) {
    }

    private final Path file;
    private final String what;
    private final System.Logger log;
    private Seen actedOn;
    private Seen pending;
    private String lastFailure;

    /**
     * @param text what was read and used at start
     * @param what names what the file holds in log lines ("config", "endpoints")
     * @param log  where refusals go (the owner's logger)
     */
    public WatchedFile(Path file, String text, String what, System.Logger log) {
        this.file = Objects.requireNonNull(file, "file");
        this.what = what;
        this.log = log;
        this.actedOn = new Seen(Objects.requireNonNull(text, "text"), null);
    }

    /** @throws ConfigException naming the file when it cannot be read */
    public static String read(Path file) throws ConfigException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), 0, "cannot be read: " + e.getMessage());
        }
    }

    public Path file() {
        return file;
    }

    /** Reads the file once and, when a change has settled, hands its text to {@code use}. Never throws. */
    public synchronized ReloadOutcome poll(Use use) {
        Seen now;
        try {
            now = new Seen(read(file), null);
        } catch (ConfigException e) {
            now = new Seen(null, e.getMessage());
        }
        if (now.equals(actedOn)) {
            pending = null;
            return ReloadOutcome.UNCHANGED;
        }
        if (!now.equals(pending)) {
            pending = now;
            return ReloadOutcome.SETTLING;
        }
        pending = null;
        actedOn = now;
        if (now.failure() != null) {
            return refused(now.failure());
        }
        try {
            use.apply(now.text());
        } catch (ConfigException e) {
            return refused(e.getMessage());
        }
        lastFailure = null;
        return ReloadOutcome.APPLIED;
    }

    private ReloadOutcome refused(String message) {
        if (!message.equals(lastFailure)) {
            log.log(System.Logger.Level.WARNING, what + " reload refused, running " + what + " kept: " + message);
            lastFailure = message;
        }
        return ReloadOutcome.REFUSED;
    }
}
