package dev.homing.protocol.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The two rules every module states about itself: which modules of ours it may use (DEVELOPERS.md's table) and no
 * package cycle. Written once here, in homing-protocol's test jar: protocol is the one module every other may use,
 * and a test jar is test scope, so sharing this code adds no arrow between the modules' main code.
 */
public final class ModuleRules {

    /** Every module of ours lives under it: {@code dev.homing.<module>}. */
    public static final String ROOT = "dev.homing";

    private ModuleRules() {
    }

    /** {@code dev.homing.core} for {@code dev.homing.core.framework.plugin}. */
    static String moduleOf(String packageName) {
        String[] parts = packageName.split("\\.");
        if (parts.length < 3 || !packageName.startsWith(ROOT + ".")) {
            throw new IllegalArgumentException("not a package of ours: " + packageName);
        }
        return ROOT + "." + parts[2];
    }

    /**
     * {@code module} (e.g. "sim") depends on no package of ours outside its own and {@code lower}'s (e.g. "protocol").
     */
    public static ArchRule mayUseOnly(String module, String... lower) {
        List<String> allowed = new ArrayList<>();
        allowed.add(ROOT + "." + module + "..");
        for (String other : lower) {
            allowed.add(ROOT + "." + other + "..");
        }
        DescribedPredicate<JavaClass> otherModules = resideInAPackage(ROOT + "..")
                .and(DescribedPredicate.not(resideInAnyPackage(allowed.toArray(String[]::new))))
                .as("belong to a module of ours other than " + String.join(", ", allowed));
        return noClasses().that().resideInAPackage(ROOT + "." + module + "..")
                .should().dependOnClassesThat(otherModules)
                .because("modules use only the modules below them (DEVELOPERS.md, Modules)");
    }

    /** No cycle among {@code module}'s packages, each package (nested ones too) a slice of its own. */
    public static ArchRule noPackageCycles(String module) {
        return slices().assignedFrom(new PackageSlices(ROOT + "." + module))
                .should().beFreeOfCycles()
                .because("a package cycle means neither package can be understood, tested or moved alone");
    }
}
