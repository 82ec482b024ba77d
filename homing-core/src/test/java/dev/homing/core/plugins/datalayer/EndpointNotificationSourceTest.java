package dev.homing.core.plugins.datalayer;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EndpointNotificationSourceTest {

    @Test
    void hasNoParameters() {
        var p = params("{'kind':'Pod'}");
        EndpointNotificationSource s = EndpointNotificationSource.create("events", p, context());
        assertThat(s.name()).isEqualTo("events");
        assertThat(s.type()).isEqualTo("endpoint-notification-source");
        assertThat(p.unknownKeys()).containsExactly("kind");
    }
}
