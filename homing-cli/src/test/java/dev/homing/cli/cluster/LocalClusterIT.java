package dev.homing.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.precise.KvEventFeed;
import dev.homing.sim.engine.Preset;
import org.junit.jupiter.api.Test;

/** {@code homing up --precise}: the built-in precise config, with nothing written to disk. */
class LocalClusterIT {

    @Test
    void preciseClusterRunsTheBuiltInPreciseConfigFedByEveryPod() throws Exception {
        LocalCluster.Options options = new LocalCluster.Options(2, "Qwen/Qwen2.5-0.5B-Instruct",
                Preset.byName("cpu-qwen2.5-0.5b"), "127.0.0.1", 0, 0, 0, 3, null, true, null);
        try (LocalCluster cluster = LocalCluster.start(options)) {
            assertThat(cluster.precise()).isTrue();
            assertThat(cluster.router().options().configFile()).isNull();
            assertThat(cluster.router().config().pluginsOf(KvEventFeed.class)).hasSize(1);
            assertThat(cluster.router().kvEvents().producers()).containsExactly("precise-prefix-cache-producer");
            // start returned only once every pod's events were being taken
            cluster.pods().forEach(p -> assertThat(cluster.router().kvEvents().batchesTaken(p.name())).isPositive());
        }
    }
}
