package dev.homing.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What homing-core's sources must keep that its bytecode cannot show: no file over 400 lines (DEVELOPERS.md: small
 * classes, one concept each), and no import of a plugin outside {@code core.plugins}, even of a constant (javac
 * copies a constant's value into the class that reads it, so the bytecode rules of {@link CoreRules} never see it).
 */
class CoreSourcesTest {

    static final int MAX_LINES = 400;
    /** Surefire runs in the module's folder. */
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");
    private static final Path PLUGINS = MAIN_SOURCES.resolve("dev/homing/core/plugins");
    private static final Pattern PLUGIN_IMPORT = Pattern.compile("(?m)^import (static )?dev\\.homing\\.core\\.plugins\\.");

    private static Map<Path, List<String>> sources;

    @BeforeAll
    static void read() throws IOException {
        sources = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(MAIN_SOURCES)) {
            walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.put(p, lines(p)));
        }
        assertThat(sources.keySet()).as("core's sources under %s", MAIN_SOURCES.toAbsolutePath())
                .contains(PLUGINS.resolve("BuiltIns.java"), MAIN_SOURCES.resolve("dev/homing/core/config/DefaultConfig.java"));
    }

    @Test
    void noFileOver400Lines() {
        Map<String, Integer> tooLong = new TreeMap<>();
        sources.forEach((file, lines) -> {
            if (lines.size() > MAX_LINES) {
                tooLong.put(MAIN_SOURCES.relativize(file).toString(), lines.size());
            }
        });
        assertThat(tooLong).as("files of homing-core over %d lines", MAX_LINES).isEmpty();
    }

    @Test
    void onlyPluginsImportPlugins() {
        List<String> outside = sources.entrySet().stream()
                .filter(e -> !e.getKey().startsWith(PLUGINS) && importsAPlugin(String.join("\n", e.getValue())))
                .map(e -> MAIN_SOURCES.relativize(e.getKey()).toString()).toList();
        assertThat(outside).as("files outside core.plugins that import a plugin").isEmpty();
    }

    @Test
    void thePluginImportCheckSeesAnImportOfAConstant() {
        assertThat(importsAPlugin("package dev.homing.core.config;\n\nimport dev.homing.core.framework.plugin.Plugin;\n"
                + "import dev.homing.core.plugins.picker.MaxScorePicker;\n")).isTrue();
        assertThat(importsAPlugin("package dev.homing.core.config;\n\n"
                + "import static dev.homing.core.plugins.picker.MaxScorePicker.TYPE;\n")).isTrue();
        assertThat(importsAPlugin("package dev.homing.core.config;\n\nimport dev.homing.core.framework.plugin.Plugin;\n"
                + "/** See dev.homing.core.plugins.BuiltIns. */\n")).isFalse();
    }

    private static boolean importsAPlugin(String source) {
        return PLUGIN_IMPORT.matcher(source).find();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
