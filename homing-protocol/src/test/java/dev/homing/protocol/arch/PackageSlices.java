package dev.homing.protocol.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * Each package under a module's root its own slice, the root package included (it holds e.g. the router's
 * {@code RouterServer}); {@code slices().matching("dev.homing.router.(**)")} would leave the root out.
 */
final class PackageSlices implements SliceAssignment {

    private final String root;

    PackageSlices(String root) {
        this.root = root;
    }

    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        String name = javaClass.getPackageName();
        return name.equals(root) || name.startsWith(root + ".") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
        return "packages of " + root + ", each its own slice";
    }
}
