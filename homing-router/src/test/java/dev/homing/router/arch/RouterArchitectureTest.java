package dev.homing.router.arch;

import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.protocol.arch.MainClasses;
import dev.homing.protocol.arch.ModuleRules;
import dev.homing.router.RouterServer;
import dev.homing.router.archfixture.ImportsHigherModules;
import dev.homing.router.archfixture.cycle.Ping;
import dev.homing.router.archfixture.cycle.pong.Pong;
import org.junit.jupiter.api.Test;

/** homing-router's floors: it uses only core and protocol, and has no package cycle. */
class RouterArchitectureTest {

    static final ArchRule MODULES = ModuleRules.mayUseOnly("router", "core", "protocol");
    static final ArchRule PACKAGE_CYCLES = ModuleRules.noPackageCycles("router");

    private static final JavaClasses MAIN = MainClasses.of(RouterServer.class);

    @Test
    void importsTheMainClassesOnly() {
        assertThat(MAIN.stream().map(JavaClass::getPackageName))
                .allMatch(p -> p.startsWith("dev.homing.router"))
                .noneMatch(p -> p.contains("archfixture"));
    }

    @Test
    void usesOnlyCoreAndProtocol() {
        MODULES.check(MAIN);
    }

    @Test
    void hasNoPackageCycle() {
        PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void moduleRuleCatchesAnImportOfAHigherModule() {
        assertThat(violationsOf(MODULES, ImportsHigherModules.class))
                .contains("dev.homing.sim.archstandin.SimStandIn", "dev.homing.bench.archstandin.BenchStandIn",
                        "dev.homing.cli.archstandin.CliStandIn");
    }

    @Test
    void cycleRuleCatchesAPackageCycle() {
        assertThat(violationsOf(PACKAGE_CYCLES, Ping.class, Pong.class))
                .contains("dev.homing.router.archfixture.cycle -> ", "dev.homing.router.archfixture.cycle.pong");
    }
}
