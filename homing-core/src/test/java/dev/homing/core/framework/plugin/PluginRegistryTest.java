package dev.homing.core.framework.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.scheduling.Picker;
import dev.homing.core.framework.scheduling.ProfileHandler;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PluginRegistryTest {

    private static final PluginContext CTX = new PluginContext(() -> 0L, new SplittableRandom(1), new EndpointPool());

    /** A plugin that records the type it was made as and the one parameter it reads. */
    private record Made(String type, String name, String colour) implements Plugin {
    }

    private static PluginFactory factory(String type) {
        return (name, p, ctx) -> new Made(type, name, p.string("colour", "grey"));
    }

    @Test
    void anAliasMakesThePluginUnderItsOwnFactoryAndNamesAnUnnamedInstanceAfterItself() {
        PluginType t = PluginType.of("new-name", factory("new-name")).alias("old-name")
                .alias("older-name", factory("older-name"));
        PluginRegistry r = PluginRegistry.of(List.of(t));

        assertThat(r.types()).containsExactly("new-name", "old-name", "older-name");
        assertThat((Made) r.create("old-name", null, Parameters.empty(), CTX))
                .isEqualTo(new Made("new-name", "old-name", "grey"));
        assertThat((Made) r.create("older-name", "mine", Parameters.empty(), CTX))
                .isEqualTo(new Made("older-name", "mine", "grey"));
    }

    @Test
    void aParameterNoFactoryReadIsLeftAsANoticeWithTheOnesItKnowsAndAnUnknownTypeIsRefused() {
        PluginRegistry r = PluginRegistry.of(List.of(PluginType.of("t", factory("t"))));
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("color", "red");
        Parameters p = Parameters.of(params);

        assertThat((Made) r.create("t", null, p, CTX)).isEqualTo(new Made("t", "t", "grey"));
        assertThat(p.notices()).containsExactly(new ParameterNotice("color",
                "unknown, ignored (no parameter has this name, in any case; llm-d ignores it too); known here: colour"));
        assertThatThrownBy(() -> r.create("u", null, Parameters.empty(), CTX))
                .hasMessage("unknown plugin type 'u'; known types: t");
    }

    @Test
    void aRoleHasTheDefaultItsTypeClaimsAndOnlyOne() {
        PluginType picker = PluginType.of("p", factory("p")).defaultFor(Picker.class);
        PluginRegistry r = PluginRegistry.of(List.of(picker, PluginType.of("q", factory("q"))));

        assertThat(r.defaultFor(Picker.class)).hasValue("p");
        assertThat(r.defaultFor(ProfileHandler.class)).isEmpty();
        assertThatThrownBy(() -> PluginRegistry.of(List.of(picker,
                PluginType.of("q", factory("q")).defaultFor(Picker.class))))
                .hasMessageContaining("two default Pickers: p and q");
    }

    @Test
    void aNameRegisteredTwiceIsRefusedWhetherTypeOrAlias() {
        assertThatThrownBy(() -> PluginRegistry.of(List.of(PluginType.of("a", factory("a")),
                PluginType.of("b", factory("b")).alias("a"))))
                .hasMessage("plugin type registered twice: a");
        assertThatThrownBy(() -> PluginType.of("a", factory("a")).alias("a"))
                .hasMessage("alias 'a' is the type's own name");
        assertThatThrownBy(() -> PluginType.of("a", factory("a")).alias("b").alias("b"))
                .hasMessage("alias named twice: b");
    }

    @Test
    void aPairingIsFoundUnderTheTypesNameAndItsAliases() {
        Pairing pairing = params -> new Pairing.Companion("c", "c", false, params, "link", Plugin.class,
                new Pairing.Words("parameters", "companion", "is not one", "companions"));
        PluginRegistry r = PluginRegistry.of(List.of(PluginType.of("a", factory("a")).alias("old-a").pairedBy(pairing),
                PluginType.of("b", factory("b"))));

        assertThat(r.pairing("a")).containsSame(pairing);
        assertThat(r.pairing("old-a")).containsSame(pairing);
        assertThat(r.pairing("b")).isEmpty();
        assertThat(r.pairing("unknown")).isEmpty();
    }
}
