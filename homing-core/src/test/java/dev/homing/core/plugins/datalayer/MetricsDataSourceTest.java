package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.framework.plugin.PluginConfigException;
import org.junit.jupiter.api.Test;

class MetricsDataSourceTest {

    @Test
    void defaultsAreLlmDs() {
        assertThat(MetricsDataSource.create(null, params("{}"), context()))
                .isEqualTo(new MetricsDataSource("metrics-data-source", "http", "/metrics", true));
    }

    @Test
    void parametersOverrideThem() {
        MetricsDataSource s = MetricsDataSource.create("m", params(
                "{'scheme':'https','path':'/custom/metrics','insecureSkipVerify':false}"), context());
        assertThat(s).isEqualTo(new MetricsDataSource("m", "https", "/custom/metrics", false));
        assertThat(s.type()).isEqualTo("metrics-data-source");
    }

    @Test
    void badValuesAreRefused() {
        assertThatThrownBy(() -> MetricsDataSource.create(null, params("{'scheme':'ftp'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'scheme'");
        assertThatThrownBy(() -> MetricsDataSource.create(null, params("{'path':'metrics'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'path'");
        assertThatThrownBy(() -> MetricsDataSource.create(null, params("{'insecureSkipVerify':'yes'}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'insecureSkipVerify'");
    }
}
