package dev.homing.bench.arch;

import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.bench.archfixture.ImportsHigherModules;
import dev.homing.bench.archfixture.cycle.Ping;
import dev.homing.bench.archfixture.cycle.pong.Pong;
import dev.homing.bench.virtual.VirtualBench;
import dev.homing.protocol.arch.MainClasses;
import dev.homing.protocol.arch.ModuleRules;
import org.junit.jupiter.api.Test;

/** homing-bench's floors: it uses only core, sim and protocol (never the router), and has no package cycle. */
class BenchArchitectureTest {

    static final ArchRule MODULES = ModuleRules.mayUseOnly("bench", "core", "sim", "protocol");
    static final ArchRule PACKAGE_CYCLES = ModuleRules.noPackageCycles("bench");

    private static final JavaClasses MAIN = MainClasses.of(VirtualBench.class);

    @Test
    void importsTheMainClassesOnly() {
        assertThat(MAIN.stream().map(JavaClass::getPackageName))
                .allMatch(p -> p.startsWith("dev.homing.bench"))
                .noneMatch(p -> p.contains("archfixture"));
    }

    @Test
    void usesOnlyCoreSimAndProtocol() {
        MODULES.check(MAIN);
    }

    @Test
    void hasNoPackageCycle() {
        PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void moduleRuleCatchesAnImportOfAHigherModule() {
        assertThat(violationsOf(MODULES, ImportsHigherModules.class))
                .contains("dev.homing.router.archstandin.RouterStandIn", "dev.homing.cli.archstandin.CliStandIn");
    }

    @Test
    void cycleRuleCatchesAPackageCycle() {
        assertThat(violationsOf(PACKAGE_CYCLES, Ping.class, Pong.class))
                .contains("dev.homing.bench.archfixture.cycle -> ", "dev.homing.bench.archfixture.cycle.pong");
    }
}
