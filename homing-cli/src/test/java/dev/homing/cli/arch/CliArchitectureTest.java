package dev.homing.cli.arch;

import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.cli.Main;
import dev.homing.cli.archfixture.cycle.Ping;
import dev.homing.cli.archfixture.cycle.pong.Pong;
import dev.homing.protocol.arch.MainClasses;
import dev.homing.protocol.arch.ModuleRules;
import org.junit.jupiter.api.Test;

/** homing-cli may use every module, so its one floor is no package cycle. */
class CliArchitectureTest {

    static final ArchRule PACKAGE_CYCLES = ModuleRules.noPackageCycles("cli");

    private static final JavaClasses MAIN = MainClasses.of(Main.class);

    @Test
    void importsTheMainClassesOnly() {
        assertThat(MAIN.stream().map(JavaClass::getPackageName))
                .allMatch(p -> p.startsWith("dev.homing.cli"))
                .noneMatch(p -> p.contains("archfixture"));
    }

    @Test
    void hasNoPackageCycle() {
        PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void cycleRuleCatchesAPackageCycle() {
        assertThat(violationsOf(PACKAGE_CYCLES, Ping.class, Pong.class))
                .contains("dev.homing.cli.archfixture.cycle -> ", "dev.homing.cli.archfixture.cycle.pong");
    }
}
