package dev.homing.core.plugins.profile;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static dev.homing.core.plugins.PluginFixtures.result;
import static dev.homing.core.plugins.PluginFixtures.scheduling;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.plugins.PluginFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisaggHeadersHandlerTest {

    private final EndpointPool pool = PluginFixtures.pool(new Endpoint("d", "10.0.0.1", 8000),
            new Endpoint("p", "10.0.0.3", 8000), new Endpoint("e1", "10.0.0.4", 8000), new Endpoint("e2", "fd00::5", 9000));

    private Cycle cycle() {
        return new Cycle(Requests.completion("hi"), pool.snapshot(), 0);
    }

    @Test
    void prefillTargetAndEveryEncodeTargetAsHostPort() {
        var s = pool.snapshot();
        Cycle c = cycle();
        DisaggHeadersHandler.create(null, params("{}"), context()).preRequest(c, scheduling("decode",
                result("decode", s.get("d")), result("prefill", s.get("p")), result("encode", s.get("e1"), s.get("e2"))));
        assertThat(c.upstreamHeaders()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x-prefiller-host-port", "10.0.0.3:8000",
                "x-encoder-hosts-ports", "10.0.0.4:8000,[fd00::5]:9000"));
    }

    @Test
    void noDisaggregatedStageClearsTheHeaders() {
        Cycle c = cycle();
        c.upstreamHeaders().put("x-prefiller-host-port", "stale");
        DisaggHeadersHandler.create(null, params("{}"), context())
                .preRequest(c, scheduling("decode", result("decode", pool.snapshot().get("d"))));
        assertThat(c.upstreamHeaders()).isEmpty();
    }

    @Test
    void profileNamesAreParametersAndTheOldNameKeepsItsType() {
        var s = pool.snapshot();
        Cycle c = cycle();
        DisaggHeadersHandler h = DisaggHeadersHandler.createDeprecated(null, params("{'prefillProfile':'pf'}"), context());
        h.preRequest(c, scheduling("decode", result("decode", s.get("d")), result("pf", s.get("p"))));
        assertThat(c.upstreamHeaders()).containsExactly(Map.entry("x-prefiller-host-port", "10.0.0.3:8000"));
        assertThat(h.type()).isEqualTo("prefill-header-handler");
        assertThat(List.of(h.name())).containsExactly("prefill-header-handler");
    }
}
