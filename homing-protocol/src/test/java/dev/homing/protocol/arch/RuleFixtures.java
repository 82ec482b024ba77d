package dev.homing.protocol.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

/** Proof that a rule can fail: it is checked against fixtures written to break it. */
public final class RuleFixtures {

    private RuleFixtures() {
    }

    /** The failure message of {@code rule} checked against {@code fixtures}; an AssertionError if it passes. */
    public static String violationsOf(ArchRule rule, Class<?>... fixtures) {
        JavaClasses classes = new ClassFileImporter().importClasses(fixtures);
        try {
            rule.check(classes);
        } catch (AssertionError expected) {
            return expected.getMessage();
        }
        throw new AssertionError("rule passed on fixtures written to break it: " + rule.getDescription());
    }

    /** Checks {@code rule} against {@code fixtures} that keep it, proving what it allows. */
    public static void check(ArchRule rule, Class<?>... fixtures) {
        rule.check(new ClassFileImporter().importClasses(fixtures));
    }
}
