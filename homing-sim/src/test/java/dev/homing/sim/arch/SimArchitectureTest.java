package dev.homing.sim.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.protocol.arch.ModuleFloors;
import dev.homing.protocol.arch.TimeAndRandomFloors;
import dev.homing.protocol.arch.TimeAndRandomRules;
import dev.homing.sim.archfixture.ImportsHigherModules;
import dev.homing.sim.archfixture.cycle.Ping;
import dev.homing.sim.archfixture.cycle.pong.Pong;
import dev.homing.sim.engine.Engine;
import dev.homing.sim.engine.RealTimeEngineDriver;
import dev.homing.sim.engine.archfixture.UsesTheWallClock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * homing-sim's floors: it uses only protocol (never core), has no package cycle, and its engine takes time and
 * randomness as injected, like core. The one engine class exempted is {@link RealTimeEngineDriver}: it runs the engine
 * on the wall clock (a timed Condition wait until the next event, a bounded join of its thread on close); it too
 * reads the time only through the {@code LongSupplier} it is given.
 */
class SimArchitectureTest {

    private static final DescribedPredicate<JavaClass> ENGINE = resideInAPackage("dev.homing.sim.engine..");
    private static final DescribedPredicate<JavaClass> MODEL = ENGINE
            .and(DescribedPredicate.not(belongToAnyOf(RealTimeEngineDriver.class)))
            .as("reside in dev.homing.sim.engine.. but RealTimeEngineDriver");

    static final ArchRule NO_CLOCK = TimeAndRandomRules.noClockReads(MODEL);
    static final ArchRule NO_WAITS = TimeAndRandomRules.noWaitsOnTheClock(MODEL);
    static final ArchRule NO_GLOBAL_RANDOM = TimeAndRandomRules.noGlobalRandom(MODEL);

    private static final ModuleFloors FLOORS = ModuleFloors.of(Engine.class);
    private static final JavaClasses MAIN = FLOORS.main();

    @TestFactory
    Stream<DynamicTest> floors() {
        return FLOORS.tests(List.of("protocol"), ImportsHigherModules.class, Ping.class, Pong.class);
    }

    @Test
    void importsTheEngineDriverItExempts() {
        assertThat(MAIN.contain(RealTimeEngineDriver.class)).isTrue();
    }

    @TestFactory
    Stream<DynamicTest> engineTimeAndRandom() {
        return TimeAndRandomFloors.tests(MODEL, MAIN);
    }

    /** The exemption is needed, and for that class alone: without it only RealTimeEngineDriver breaks a rule. */
    @Test
    void realTimeEngineDriverIsTheOneExemption() {
        assertThat(TimeAndRandomRules.noWaitsOnTheClock(ENGINE).evaluate(MAIN).getFailureReport().getDetails())
                .isNotEmpty()
                .allMatch(line -> line.startsWith("Method <" + RealTimeEngineDriver.class.getName() + "."));
        TimeAndRandomRules.noClockReads(ENGINE).check(MAIN);
        TimeAndRandomRules.noGlobalRandom(ENGINE).check(MAIN);
    }

    @Test
    void engineRulesCatchTheWallClockAndGlobalRandomness() {
        assertThat(violationsOf(NO_CLOCK, UsesTheWallClock.class)).contains("java.lang.System.nanoTime()");
        assertThat(violationsOf(NO_WAITS, UsesTheWallClock.class)).contains("java.lang.Thread.sleep(long)");
        assertThat(violationsOf(NO_GLOBAL_RANDOM, UsesTheWallClock.class)).contains("java.util.Random.<init>()");
    }
}
