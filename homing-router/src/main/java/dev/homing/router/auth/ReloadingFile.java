package dev.homing.router.auth;

import dev.homing.core.config.ConfigException;
import dev.homing.router.config.WatchedFile;
import java.nio.file.Path;

/**
 * A file of secrets read at start (a bad one stops the start, naming its line) and followed: a change that parses
 * replaces what is used at once, one that does not is refused and logged, the tokens before it kept. Rotating a key
 * is writing the file; nothing restarts.
 *
 * @param <T> what the file's text parses to
 */
public final class ReloadingFile<T> {

    /** Parses a file's text; {@code source} names the file in errors. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String source, String text) throws ConfigException;
    }

    private final Parser<T> parser;
    private final WatchedFile watched;
    private volatile T current;

    private ReloadingFile(Parser<T> parser, WatchedFile watched, T current) {
        this.parser = parser;
        this.watched = watched;
        this.current = current;
    }

    /** @throws ConfigException naming the file (and line) when it cannot be read or parsed */
    public static <T> ReloadingFile<T> load(Path file, String what, Parser<T> parser) throws ConfigException {
        String text = WatchedFile.read(file);
        T parsed = parser.parse(file.toString(), text);
        return new ReloadingFile<>(parser, new WatchedFile(file, text, what,
                System.getLogger(ReloadingFile.class.getName())), parsed);
    }

    public T current() {
        return current;
    }

    /** Looks at the file once and takes a settled change that parses. */
    public void poll() {
        watched.poll(text -> current = parser.parse(watched.file().toString(), text));
    }
}
