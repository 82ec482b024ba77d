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
 * classes, one concept each), and no mention of a plugin in code outside {@code core.plugins}, by import or by full
 * name, even of a constant (javac copies a constant's value into the class that reads it, so the bytecode rules of
 * {@link CoreRules} never see it). Comments may name a plugin.
 */
class CoreSourcesTest {

    static final int MAX_LINES = 400;
    /** Surefire runs in the module's folder. */
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");
    private static final Path PLUGINS = MAIN_SOURCES.resolve("dev/homing/core/plugins");
    private static final Pattern PLUGIN_NAME = Pattern.compile("\\bdev\\.homing\\.core\\.plugins\\.");

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
                .filter(e -> !e.getKey().startsWith(PLUGINS) && namesAPlugin(String.join("\n", e.getValue())))
                .map(e -> MAIN_SOURCES.relativize(e.getKey()).toString()).toList();
        assertThat(outside).as("files outside core.plugins whose code names a plugin").isEmpty();
    }

    @Test
    void thePluginImportCheckSeesAnImportOfAConstant() {
        assertThat(namesAPlugin("package dev.homing.core.config;\n\nimport dev.homing.core.framework.plugin.Plugin;\n"
                + "import dev.homing.core.plugins.picker.MaxScorePicker;\n")).isTrue();
        assertThat(namesAPlugin("package dev.homing.core.config;\n\n"
                + "import static dev.homing.core.plugins.picker.MaxScorePicker.TYPE;\n")).isTrue();
        assertThat(namesAPlugin("package dev.homing.core.config;\n\nimport dev.homing.core.framework.plugin.Plugin;\n"
                + "/** See dev.homing.core.plugins.BuiltIns. */\n")).isFalse();
        // a constant named in full, with no import, is a mention too (even after strings holding // and /*)
        assertThat(namesAPlugin("class A {\n    String t = dev.homing.core.plugins.picker.MaxScorePicker.TYPE;\n}\n"))
                .isTrue();
        assertThat(namesAPlugin("class A {\n    String t = \"a // b\" + \"/*\" +\n"
                + "            dev.homing.core.plugins.picker.MaxScorePicker.TYPE; // */\n}\n")).isTrue();
        // a mention in comments only is not
        assertThat(namesAPlugin("class A {\n    // dev.homing.core.plugins.picker.MaxScorePicker.TYPE\n"
                + "    /* dev.homing.core.plugins.picker.MaxScorePicker.TYPE */ String t = \"x\";\n"
                + "    /**\n     * {@link dev.homing.core.plugins.BuiltIns}\n     */\n    char c = '\"';\n}\n"))
                .isFalse();
    }

    @Test
    void commentsAreStrippedOutsideLiteralsOnly() {
        assertThat(WithoutComments.of("a /* x */ b // y\nc /** z\n */ d")).isEqualTo("a   b  \nc   d");
        assertThat(WithoutComments.of("s = \"// not a comment\"; t = \"\\\" /* still a string\";"))
                .isEqualTo("s = \"// not a comment\"; t = \"\\\" /* still a string\";");
        assertThat(WithoutComments.of("c = '\"'; /* gone */ u = \"\"\"\n  // kept \\\"\"\"\n  \"\"\";"))
                .isEqualTo("c = '\"';   u = \"\"\"\n  // kept \\\"\"\"\n  \"\"\";");
    }

    private static boolean namesAPlugin(String source) {
        return PLUGIN_NAME.matcher(WithoutComments.of(source)).find();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
