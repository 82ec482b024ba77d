package dev.homing.protocol.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * A module's main classes, as its architecture rules see them: imported from the folder (or jar) its main code was
 * loaded from, never its tests, so the fixtures that prove a rule can fail never reach the real check.
 */
public final class MainClasses {

    private MainClasses() {
    }

    /**
     * @param known a main class of the module under test; the import comes from where it was loaded and fails loudly
     *              when it is empty or lacks {@code known}, so a misconfigured import cannot pass every rule vacuously
     */
    public static JavaClasses of(Class<?> known) {
        String module = ModuleRules.moduleOf(known.getPackageName());
        Location where;
        try {
            where = Location.of(known.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no location for " + known, e);
        }
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(Set.of(where))
                .that(JavaClass.Predicates.resideInAPackage(module + ".."));
        if (classes.isEmpty() || !classes.contain(known)) {
            throw new AssertionError("importing " + module + " from " + where + " found " + classes.size()
                    + " classes, " + (classes.contain(known) ? "" : "not ") + "including " + known.getName());
        }
        return classes;
    }
}
