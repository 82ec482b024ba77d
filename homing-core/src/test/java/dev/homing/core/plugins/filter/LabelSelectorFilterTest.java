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

class LabelSelectorFilterTest {

    private final EndpointPool pool = pool(
            endpoint("a", 1, "app", "vllm", "zone", "east", "gpu", "h100"),
            endpoint("b", 2, "app", "vllm", "zone", "west"),
            endpoint("c", 3, "app", "sglang", "zone", "east"),
            endpoint("d", 4));

    private List<String> kept(String json) {
        LabelSelectorFilter f = LabelSelectorFilter.create(null, params(json), context());
        return names(f.filter(PluginFixtures.cycle(pool), pool.snapshot().endpoints()));
    }

    @Test
    void matchLabelsMustAllBePresent() {
        assertThat(kept("{'matchLabels':{'app':'vllm'}}")).containsExactly("a", "b");
        assertThat(kept("{'matchLabels':{'app':'vllm','zone':'east'}}")).containsExactly("a");
    }

    @Test
    void inAndNotInWithNotInMatchingAMissingKey() {
        assertThat(kept("{'matchExpressions':[{'key':'zone','operator':'In','values':['east','north']}]}"))
                .containsExactly("a", "c");
        assertThat(kept("{'matchExpressions':[{'key':'zone','operator':'NotIn','values':['east']}]}"))
                .containsExactly("b", "d");
    }

    @Test
    void existsAndDoesNotExist() {
        assertThat(kept("{'matchExpressions':[{'key':'gpu','operator':'Exists'}]}")).containsExactly("a");
        assertThat(kept("{'matchExpressions':[{'key':'app','operator':'DoesNotExist'}]}")).containsExactly("d");
    }

    @Test
    void everythingIsAnded() {
        assertThat(kept("{'matchLabels':{'app':'vllm'},'matchExpressions':[{'key':'gpu','operator':'DoesNotExist'}]}"))
                .containsExactly("b");
    }

    @Test
    void anEmptySelectorKeepsEveryoneAndAnUnmatchedOneNobody() {
        assertThat(kept("{}")).containsExactly("a", "b", "c", "d");
        assertThat(kept("{'matchLabels':{'app':'trtllm'}}")).isEmpty();
    }

    @Test
    void mistakesAreConfigErrorsSayingWhere() {
        assertThatThrownBy(() -> kept("{'matchExpressions':[{'key':'zone','operator':'in','values':['x']}]}"))
                .isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("matchExpressions[0]").hasMessageContaining("'operator'");
        assertThatThrownBy(() -> kept("{'matchExpressions':[{'key':'zone','operator':'In'}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'values'");
        assertThatThrownBy(() -> kept("{'matchExpressions':[{'key':'zone','operator':'Exists','values':['x']}]}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'values'");
        assertThatThrownBy(() -> kept("{'matchLabels':{'bad key':'x'}}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("bad key");
        assertThatThrownBy(() -> kept("{'matchLabels':['app']}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'matchLabels'");
    }

    @Test
    void aMisspeltExpressionKeyIsLeftAsANoticeNamingItsPath() {
        var p = params("{'matchExpressions':[{'key':'zone','operator':'Exists','value':['x']}]}");
        LabelSelectorFilter.create(null, p, context());
        assertThat(p.notices()).extracting(n -> n.path()).containsExactly("matchExpressions[0].value");
    }

    @Test
    void prefixedKeysAreValid() {
        EndpointPool roles = pool(endpoint("x", 1, "llm-d.ai/role", "decode"));
        LabelSelectorFilter f = LabelSelectorFilter.create(null, params("{'matchLabels':{'llm-d.ai/role':'decode'}}"),
                context());
        assertThat(f.filter(PluginFixtures.cycle(roles), roles.snapshot().endpoints())).hasSize(1);
    }

    @Test
    void theDeprecatedAliasKeepsItsType() {
        assertThat(LabelSelectorFilter.createDeprecated(null, params("{}"), context()).type())
                .isEqualTo("by-label-selector");
        assertThat(LabelSelectorFilter.create(null, params("{}"), context()).type()).isEqualTo("label-selector-filter");
    }
}
