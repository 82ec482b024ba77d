package dev.homing.router.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.director.Director;
import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.fixtures.LogCapture;
import dev.homing.router.SystemTicker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file that loads with warnings (a parameter llm-d would ignore) has them logged at start and on every reload. */
class PolicySourceTest {

    private static final String CONFIG = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - type: queue-scorer
            - type: no-hit-lru-scorer
              parameters:
                lruSiz: %d
            """;

    @TempDir
    Path dir;

    private final LogCapture log = LogCapture.of(PolicySource.class);

    @AfterEach
    void stopListening() {
        log.close();
    }

    @Test
    void warningsAreLoggedWithFileAndLineAtStartAndOnReload() throws Exception {
        Path file = dir.resolve("epp.yaml");
        Files.writeString(file, CONFIG.formatted(5));
        EndpointPool pool = new EndpointPool();
        PolicySource source = PolicySource.load(file, BuiltInConfig.DEFAULT, BuiltIns.registry(),
                new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(1), pool));
        assertThat(log.warnings()).singleElement().asString()
                .startsWith("config warning: " + file + ":7: plugin 'no-hit-lru-scorer' (no-hit-lru-scorer): "
                        + "parameter 'lruSiz': unknown, ignored");

        log.clear();
        Director director = new Director(pool, source.current().policy(), SystemTicker.INSTANCE);
        Files.writeString(file, "# moved down a line\n" + CONFIG.formatted(6));
        var before = source.current();
        assertThat(source.reload(director)).isEqualTo(ReloadOutcome.SETTLING);
        assertThat(source.current()).as("not before a second read agrees").isSameAs(before);
        assertThat(log.warnings()).isEmpty();
        assertThat(source.reload(director)).isEqualTo(ReloadOutcome.APPLIED);
        assertThat(log.warnings()).singleElement().asString().startsWith("config warning: " + file + ":8: plugin "
                + "'no-hit-lru-scorer'");
        assertThat(director.policy()).isSameAs(source.current().policy());
    }
}
