package dev.homing.protocol.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Arrays;
import java.util.List;

/**
 * Proof that a rule can fail: it is checked against fixtures written to break it. A rule whose scope holds none of
 * the fixtures checks nothing, and ArchUnit reports that as an AssertionError too ("failed to check any classes");
 * taken for a violation, a fixture outside the rule's scope would "prove" it fails for the wrong reason, so here only
 * violations found in classes the rule checked count.
 */
public final class RuleFixtures {

    private RuleFixtures() {
    }

    /**
     * The violations {@code rule} finds in {@code fixtures}, one per line; an AssertionError if it finds none, or if
     * none of the fixtures is in its scope.
     */
    public static String violationsOf(ArchRule rule, Class<?>... fixtures) {
        EvaluationResult result = evaluate(rule, fixtures);
        List<String> details = result.getFailureReport().getDetails();
        if (!result.hasViolation() || details.isEmpty()) {
            throw new AssertionError("rule passed on fixtures written to break it: " + rule.getDescription());
        }
        return String.join("\n", details);
    }

    /** Checks {@code rule} against {@code fixtures} that keep it, proving what it allows (they must be in scope). */
    public static void check(ArchRule rule, Class<?>... fixtures) {
        EvaluationResult result = evaluate(rule, fixtures);
        if (result.hasViolation()) {
            throw new AssertionError(result.getFailureReport().toString());
        }
    }

    private static EvaluationResult evaluate(ArchRule rule, Class<?>... fixtures) {
        JavaClasses classes = new ClassFileImporter().importClasses(fixtures);
        try {
            // whatever archunit.properties says: an empty scope must not pass as "no violation"
            return rule.allowEmptyShould(false).evaluate(classes);
        } catch (AssertionError empty) {
            throw new AssertionError("rule checked none of the fixtures " + Arrays.stream(fixtures)
                    .map(Class::getSimpleName).toList() + " (outside its scope): " + rule.getDescription(), empty);
        }
    }
}
