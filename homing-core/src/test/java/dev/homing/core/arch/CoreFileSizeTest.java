package dev.homing.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** No file in homing-core's main code is over 400 lines (DEVELOPERS.md): small classes, one concept each. */
class CoreFileSizeTest {

    static final int MAX_LINES = 400;
    /** Surefire runs in the module's folder. */
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");

    @Test
    void noFileOver400Lines() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(MAIN_SOURCES)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(files).as("core's sources under %s", MAIN_SOURCES.toAbsolutePath())
                .contains(MAIN_SOURCES.resolve("dev/homing/core/plugins/BuiltIns.java"));
        Map<String, Integer> tooLong = new TreeMap<>();
        for (Path file : files) {
            int lines = lineCount(file);
            if (lines > MAX_LINES) {
                tooLong.put(MAIN_SOURCES.relativize(file).toString(), lines);
            }
        }
        assertThat(tooLong).as("files of homing-core over %d lines", MAX_LINES).isEmpty();
    }

    private static int lineCount(Path file) {
        try {
            return Files.readAllLines(file).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
