package dev.homing.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary directory a command works in, deleted with what is in it when closed; one left behind is no error. */
record TempDir(Path path) implements AutoCloseable {

    static TempDir create(String prefix) throws IOException {
        return new TempDir(Files.createTempDirectory(prefix));
    }

    Path resolve(String name) {
        return path.resolve(name);
    }

    @Override
    public void close() {
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // left behind in the temporary directory
        }
    }
}
