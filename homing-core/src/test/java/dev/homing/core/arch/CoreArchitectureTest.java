package dev.homing.core.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import dev.homing.core.config.DefaultConfig;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.filter.RoleFilters;
import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.protocol.arch.MainClasses;
import org.junit.jupiter.api.Test;

/** homing-core's main classes keep every rule of {@link CoreRules}. */
class CoreArchitectureTest {

    private static final JavaClasses MAIN = MainClasses.of(DefaultConfig.class);

    @Test
    void importsTheMainClassesOnly() {
        assertThat(MAIN.contain(BuiltIns.class)).isTrue();
        assertThat(MAIN.stream().map(JavaClass::getPackageName))
                .allMatch(p -> p.startsWith("dev.homing.core"))
                .noneMatch(p -> p.contains("archfixture"));
    }

    @Test
    void usesOnlyProtocol() {
        CoreRules.MODULES.check(MAIN);
    }

    @Test
    void hasNoPackageCycle() {
        CoreRules.PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void readsNoGlobalClock() {
        CoreRules.NO_CLOCK.check(MAIN);
    }

    @Test
    void waitsOnNoWallClock() {
        CoreRules.NO_WAITS.check(MAIN);
    }

    @Test
    void takesNoGlobalRandomness() {
        CoreRules.NO_GLOBAL_RANDOM.check(MAIN);
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
