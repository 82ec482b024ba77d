package dev.homing.core.plugins.filter;

import static dev.homing.core.plugins.PluginFixtures.endpoint;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugins.PluginFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoleFiltersTest {

    private static final String ROLE = "llm-d.ai/role";
    private final EndpointPool pool = pool(
            endpoint("d", 1, ROLE, "decode"),
            endpoint("p", 2, ROLE, "prefill"),
            endpoint("e", 3, ROLE, "encode"),
            endpoint("pd", 4, ROLE, "prefill-decode"),
            endpoint("both", 5, ROLE, "both"),
            endpoint("ep", 6, ROLE, "encode-prefill"),
            endpoint("epd", 7, ROLE, "encode-prefill-decode"),
            endpoint("none", 8),
            endpoint("other", 9, ROLE, "router"));

    private List<String> kept(ByLabelFilter f) {
        List<EndpointState> all = pool.snapshot().endpoints();
        return names(f.filter(PluginFixtures.cycle(pool), all));
    }

    @Test
    void decodeKeepsDecodeCapableAndUnlabelled() {
        assertThat(kept(RoleFilters.decode(null))).containsExactly("d", "pd", "both", "epd", "none");
    }

    @Test
    void prefillKeepsPrefillCapableOnly() {
        assertThat(kept(RoleFilters.prefill(null))).containsExactly("p", "pd", "both", "ep", "epd");
    }

    @Test
    void encodeKeepsEncodeCapableOnly() {
        assertThat(kept(RoleFilters.encode(null))).containsExactly("e", "ep", "epd");
    }

    @Test
    void eachReportsItsOwnType() {
        assertThat(RoleFilters.decode(null).type()).isEqualTo("decode-filter");
        assertThat(RoleFilters.prefill("p").type()).isEqualTo("prefill-filter");
        assertThat(RoleFilters.encode(null).name()).isEqualTo("encode-filter");
        assertThat(RoleFilters.decode(null).filter(PluginFixtures.cycle(pool), List.of())).isEmpty();
    }
}
