package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.PluginConfigException;
import org.junit.jupiter.api.Test;

class K8sNotificationSourceTest {

    @Test
    void watchesOneKindAndIsNamedAfterItWhenUnnamed() {
        K8sNotificationSource core = K8sNotificationSource.create(null, params("{'version':'v1','kind':'Pod'}"), context());
        assertThat(core).isEqualTo(new K8sNotificationSource("/v1, Kind=Pod", "", "v1", "Pod"));
        K8sNotificationSource pools = K8sNotificationSource.create("pools",
                params("{'group':'inference.networking.k8s.io','version':'v1','kind':'InferencePool'}"), context());
        assertThat(pools.group()).isEqualTo("inference.networking.k8s.io");
        assertThat(pools.name()).isEqualTo("pools");
    }

    @Test
    void versionAndKindAreRequired() {
        assertThatThrownBy(() -> K8sNotificationSource.create(null, params("{'kind':'Pod'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'version'");
        assertThatThrownBy(() -> K8sNotificationSource.create(null, params("{'version':'v1'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'kind'");
    }
}
