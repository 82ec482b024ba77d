package dev.homing.core.plugins.filter;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.endpoint;
import static dev.homing.core.plugins.PluginFixtures.names;
import static dev.homing.core.plugins.PluginFixtures.params;
import static dev.homing.core.plugins.PluginFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.plugins.PluginFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class ByLabelFilterTest {

    private final EndpointPool pool = pool(endpoint("gold", 1, "tier", "gold"), endpoint("silver", 2, "tier", "silver"),
            endpoint("plain", 3), endpoint("blank", 4, "tier", ""));

    private List<String> kept(String json) {
        ByLabelFilter f = ByLabelFilter.create(null, params(json), context());
        return names(f.filter(PluginFixtures.cycle(pool), pool.snapshot().endpoints()));
    }

    @Test
    void keepsValidValues() {
        assertThat(kept("{'label':'tier','validValues':['gold','bronze']}")).containsExactly("gold");
    }

    @Test
    void allowsNoLabelAlsoKeepsUnlabelled() {
        assertThat(kept("{'label':'tier','validValues':['silver'],'allowsNoLabel':true}"))
                .containsExactly("silver", "plain");
        assertThat(kept("{'label':'tier','allowsNoLabel':true}")).containsExactly("plain");
    }

    @Test
    void aMissingLabelReadsAsTheEmptyValueAsInLlmD() {
        assertThat(kept("{'label':'tier','validValues':['']}")).containsExactly("plain", "blank");
    }

    @Test
    void labelAndSomethingToKeepAreRequired() {
        assertThatThrownBy(() -> kept("{'validValues':['x']}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'label'");
        assertThatThrownBy(() -> kept("{'label':'tier'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'validValues'");
    }

    @Test
    void reportsTheDeprecatedType() {
        assertThat(ByLabelFilter.create(null, params("{'label':'a','allowsNoLabel':true}"), context()).type())
                .isEqualTo("by-label");
    }
}
