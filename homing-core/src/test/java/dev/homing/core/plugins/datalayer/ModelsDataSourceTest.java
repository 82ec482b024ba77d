package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.PluginConfigException;
import org.junit.jupiter.api.Test;

class ModelsDataSourceTest {

    @Test
    void defaultsAreLlmDs() {
        assertThat(ModelsDataSource.create(null, params("{}"), context()))
                .isEqualTo(new ModelsDataSource("models-data-source", "http", "/v1/models", true));
        assertThat(ModelsDataSource.create("x", params("{'scheme':'https'}"), context()).scheme()).isEqualTo("https");
    }

    @Test
    void onlyHttpSchemes() {
        assertThatThrownBy(() -> ModelsDataSource.create(null, params("{'scheme':'grpc'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'scheme'");
    }
}
