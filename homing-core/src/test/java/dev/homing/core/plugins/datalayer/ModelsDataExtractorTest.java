package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ModelsDataExtractorTest {

    @Test
    void hasNoParametersAndIsNamedAfterItsTypeByDefault() {
        var p = params("{'models':1}");
        ModelsDataExtractor e = ModelsDataExtractor.create(null, p, context());
        assertThat(e.name()).isEqualTo("models-data-extractor");
        assertThat(e.type()).isEqualTo("models-data-extractor");
        assertThat(p.unknownKeys()).containsExactly("models");
    }
}
