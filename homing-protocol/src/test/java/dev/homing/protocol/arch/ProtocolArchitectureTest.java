package dev.homing.protocol.arch;

import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.protocol.archfixture.ImportsHigherModules;
import dev.homing.protocol.archfixture.cycle.Ping;
import dev.homing.protocol.archfixture.cycle.pong.Pong;
import dev.homing.protocol.openai.RequestParser;
import org.junit.jupiter.api.Test;

/** homing-protocol's floors: it uses no other module of ours and has no package cycle. */
class ProtocolArchitectureTest {

    static final ArchRule MODULES = ModuleRules.mayUseOnly("protocol");
    static final ArchRule PACKAGE_CYCLES = ModuleRules.noPackageCycles("protocol");

    private static final JavaClasses MAIN = MainClasses.of(RequestParser.class);

    @Test
    void importsTheMainClassesOnly() {
        assertThat(MAIN.contain(RequestParser.class)).isTrue();
        assertThat(MAIN.stream().map(c -> c.getPackageName()))
                .allMatch(p -> p.startsWith("dev.homing.protocol"))
                .noneMatch(p -> p.contains("arch"));
    }

    @Test
    void usesNoOtherModule() {
        MODULES.check(MAIN);
    }

    @Test
    void hasNoPackageCycle() {
        PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void moduleRuleCatchesAnImportOfAHigherModule() {
        assertThat(violationsOf(MODULES, ImportsHigherModules.class))
                .contains("dev.homing.core.archstandin.CoreStandIn", "dev.homing.sim.archstandin.SimStandIn",
                        "dev.homing.router.archstandin.RouterStandIn", "dev.homing.bench.archstandin.BenchStandIn",
                        "dev.homing.cli.archstandin.CliStandIn");
    }

    @Test
    void cycleRuleCatchesAPackageCycle() {
        assertThat(violationsOf(PACKAGE_CYCLES, Ping.class, Pong.class))
                .contains("dev.homing.protocol.archfixture.cycle -> ", "dev.homing.protocol.archfixture.cycle.pong");
    }
}
