package dev.homing.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.router.SystemTicker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * deploy/base/config.yaml, the EndpointPickerConfig of the base's ConfigMap, loads through Homing's config parser and
 * resolver without a warning, and is the config Homing runs when given none (what {@code homing config default}
 * prints), so the manifests run what the benchmarks measured.
 */
class DeployConfigTest {

    @Test
    void theConfigMapsConfigLoadsAndIsHomingsDefault() throws Exception {
        Path file = DeployFiles.deploy().resolve("base/config.yaml");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        ResolvedConfig r = new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, file.toString()),
                new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(0), new EndpointPool()));
        assertThat(r.warnings()).isEmpty();
        assertThat(r.profiles()).singleElement().satisfies(p -> assertThat(p.scorers())
                .extracting(ResolvedConfig.Weighted::type)
                .containsExactlyInAnyOrder("prefix-cache-scorer", "kv-cache-utilization-scorer", "queue-depth-scorer",
                        "no-hit-lru-scorer", "active-request-scorer", "token-load-scorer", "predicted-ttft-scorer"));
        assertThat(text).isEqualTo(BuiltInConfig.DEFAULT.text());
    }
}
