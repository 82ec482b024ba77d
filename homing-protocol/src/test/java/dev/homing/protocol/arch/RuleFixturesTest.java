package dev.homing.protocol.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.homing.protocol.arch.RuleFixtures.check;
import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.lang.ArchRule;
import dev.homing.protocol.archfixture.cycle.Ping;
import dev.homing.protocol.archfixture.cycle.pong.Pong;
import org.junit.jupiter.api.Test;

/** A fixture proves a rule fails only by a violation the rule found, never by being outside its scope. */
class RuleFixturesTest {

    private static final String CYCLE = "dev.homing.protocol.archfixture.cycle";

    /** Ping names Pong and breaks it; Pong, in scope too, keeps it. */
    private static final ArchRule PING_NAMES_NO_PONG = noClasses().that().resideInAPackage(CYCLE + "..")
            .should().dependOnClassesThat().belongToAnyOf(Pong.class);

    @Test
    void aViolationIsReported() {
        assertThat(violationsOf(PING_NAMES_NO_PONG, Ping.class, Pong.class)).contains(Ping.class.getName(),
                Pong.class.getName());
    }

    @Test
    void aRuleThatPassesIsRejected() {
        assertThatThrownBy(() -> violationsOf(PING_NAMES_NO_PONG, Pong.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("rule passed on fixtures written to break it");
    }

    /** ArchUnit fails a rule whose scope is empty with an AssertionError of its own: that is no violation. */
    @Test
    void aFixtureOutsideTheRulesScopeIsRejected() {
        ArchRule elsewhere = noClasses().that().resideInAPackage("dev.homing.protocol.nowhere..")
                .should().dependOnClassesThat().resideInAPackage(CYCLE + "..");
        assertThatThrownBy(() -> violationsOf(elsewhere, Ping.class, Pong.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("rule checked none of the fixtures [Ping, Pong] (outside its scope)");
        assertThatThrownBy(() -> violationsOf(elsewhere.allowEmptyShould(true), Ping.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("rule checked none of the fixtures [Ping] (outside its scope)");
    }

    @Test
    void anAllowanceMustBeInScopeToProveAnything() {
        check(PING_NAMES_NO_PONG, Pong.class);
        assertThatThrownBy(() -> check(PING_NAMES_NO_PONG, Ping.class)).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> check(PING_NAMES_NO_PONG.allowEmptyShould(true), String.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("rule checked none of the fixtures [String] (outside its scope)");
    }
}
