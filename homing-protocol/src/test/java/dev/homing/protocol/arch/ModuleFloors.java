package dev.homing.protocol.arch;

import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The floors every module keeps, as the tests each module's {@code *ArchitectureTest} returns from a
 * {@code @TestFactory}: its main classes (and only they) are what the rules see; it uses only the modules below it;
 * its packages form no cycle; and each of those rules fails on fixtures of the module written to break it (a class
 * naming a stand-in of every module it must not use; two packages importing each other). Written once, so that a
 * module states only what differs: which modules it may use, and its fixtures.
 */
public final class ModuleFloors {

    /** Our modules, ground floor first. */
    static final List<String> MODULES = List.of("protocol", "core", "sim", "router", "bench", "cli");

    private final String module;
    private final Class<?> known;
    private final JavaClasses main;

    /** Over {@code main} as imported, so that a test can hand it a wrong import and see the floors catch it. */
    ModuleFloors(Class<?> known, JavaClasses main) {
        this.module = ModuleRules.moduleOf(known.getPackageName()).substring(ModuleRules.ROOT.length() + 1);
        this.known = known;
        this.main = main;
    }

    /** The floors of the module {@code known} belongs to, over its main classes. */
    public static ModuleFloors of(Class<?> known) {
        return new ModuleFloors(known, MainClasses.of(known));
    }

    /** The module's main classes, for the rules a module adds. */
    public JavaClasses main() {
        return main;
    }

    /**
     * @param lower                the modules of ours the module may use
     * @param importsHigherModules a fixture naming the stand-in of every other module
     * @param ping                 a fixture in a package whose subpackage holds {@code pong}; each names the other
     */
    public Stream<DynamicTest> tests(List<String> lower, Class<?> importsHigherModules, Class<?> ping, Class<?> pong) {
        ArchRule modules = ModuleRules.mayUseOnly(module, lower.toArray(String[]::new));
        List<String> forbidden = new ArrayList<>();
        for (String m : MODULES) {
            if (!m.equals(module) && !lower.contains(m)) {
                forbidden.add(standIn(m));
            }
        }
        return Stream.concat(Stream.of(
                DynamicTest.dynamicTest("uses only " + lower, () -> modules.check(main)),
                DynamicTest.dynamicTest("the module rule catches a use of " + forbidden, () ->
                        assertThat(violationsOf(modules, importsHigherModules)).contains(forbidden))),
                tests(List.of(importsHigherModules, ping, pong), ping, pong));
    }

    /** The floors of the top module, which may use every other: its main classes, and no package cycle. */
    public Stream<DynamicTest> tests(Class<?> ping, Class<?> pong) {
        return tests(List.of(ping, pong), ping, pong);
    }

    private Stream<DynamicTest> tests(List<Class<?>> fixtures, Class<?> ping, Class<?> pong) {
        ArchRule cycles = ModuleRules.noPackageCycles(module);
        String fixture = ping.getPackageName();
        List<String> fixtureNames = fixtures.stream().map(Class::getSimpleName).toList();
        return Stream.of(
                DynamicTest.dynamicTest("imports " + known.getSimpleName() + ", none of the fixtures " + fixtureNames,
                        () -> {
                            assertThat(main.contain(known)).as("the import holds %s", known.getName()).isTrue();
                            assertThat(fixtures).as("fixtures among the main classes")
                                    .filteredOn(main::contain).isEmpty();
                        }),
                DynamicTest.dynamicTest("has no package cycle", () -> cycles.check(main)),
                DynamicTest.dynamicTest("the cycle rule catches " + fixture + " <-> " + pong.getPackageName(), () ->
                        assertThat(violationsOf(cycles, ping, pong)).contains(fixture + " -> ", pong.getPackageName())));
    }

    private static String standIn(String module) {
        String name = Character.toUpperCase(module.charAt(0)) + module.substring(1);
        return ModuleRules.ROOT + "." + module + ".archstandin." + name + "StandIn";
    }
}
