package dev.homing.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.homing.core.archfixture.ImportsHigherModules;
import dev.homing.core.archfixture.cycle.Ping;
import dev.homing.core.archfixture.cycle.pong.Pong;
import dev.homing.core.config.DefaultConfig;
import dev.homing.core.plugins.filter.RoleFilters;
import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.protocol.arch.ModuleFloors;
import dev.homing.protocol.arch.TimeAndRandomFloors;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** homing-core's main classes keep every rule of {@link CoreRules}. */
class CoreArchitectureTest {

    private static final ModuleFloors FLOORS = ModuleFloors.of(DefaultConfig.class);
    private static final JavaClasses MAIN = FLOORS.main();

    @TestFactory
    Stream<DynamicTest> floors() {
        return FLOORS.tests(List.of("protocol"), ImportsHigherModules.class, Ping.class, Pong.class);
    }

    @TestFactory
    Stream<DynamicTest> timeAndRandom() {
        return TimeAndRandomFloors.tests(CoreRules.IN_CORE, MAIN);
    }

    @Test
    void doesNoIo() {
        CoreRules.NO_IO.check(MAIN);
    }

    @Test
    void printsNothing() {
        CoreRules.NO_STANDARD_STREAMS.check(MAIN);
    }

    @Test
    void onlyPluginsImportPlugins() {
        CoreRules.ONLY_PLUGINS_KNOW_PLUGINS.check(MAIN);
    }

    @Test
    void preciseImportsNoFramework() {
        CoreRules.PRECISE_WITHOUT_FRAMEWORK.check(MAIN);
    }

    @Test
    void everyPluginTypeIsListedInBuiltIns() {
        CoreRules.PLUGIN_TYPES_LISTED.check(MAIN);
    }

    @Test
    void everyPluginClassDeclaresItsType() {
        CoreRules.PLUGINS_DECLARE_A_TYPE.check(MAIN);
    }

    /** The two rules above find what is there: they are not passing because the field filter matches nothing. */
    @Test
    void pluginTypeFieldsAreFound() {
        assertThat(PluginTypeFields.of(MAIN.get(RoleFilters.class))).hasSize(3);
        assertThat(PluginTypeFields.of(MAIN.get(MaxScorePicker.class)))
                .singleElement()
                .satisfies(f -> assertThat(PluginTypeFields.valueOf(f)).isSameAs(MaxScorePicker.PLUGIN_TYPE));
    }
}
