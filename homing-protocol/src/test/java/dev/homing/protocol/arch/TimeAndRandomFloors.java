package dev.homing.protocol.arch;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The three rules of {@link TimeAndRandomRules} checked on a module's main classes, as the tests its
 * {@code *ArchitectureTest} returns from a {@code @TestFactory}: written once, as {@link ModuleFloors} is, so that
 * homing-core and the simulator state only their scope. Each rule must check some class of the scope: one whose
 * scope matches nothing would pass everything.
 */
public final class TimeAndRandomFloors {

    private TimeAndRandomFloors() {
    }

    public static Stream<DynamicTest> tests(DescribedPredicate<? super JavaClass> scope, JavaClasses main) {
        return Stream.of(
                DynamicTest.dynamicTest("reads no global clock", () ->
                        TimeAndRandomRules.noClockReads(scope).allowEmptyShould(false).check(main)),
                DynamicTest.dynamicTest("waits on no wall clock", () ->
                        TimeAndRandomRules.noWaitsOnTheClock(scope).allowEmptyShould(false).check(main)),
                DynamicTest.dynamicTest("takes no global randomness", () ->
                        TimeAndRandomRules.noGlobalRandom(scope).allowEmptyShould(false).check(main)));
    }
}
