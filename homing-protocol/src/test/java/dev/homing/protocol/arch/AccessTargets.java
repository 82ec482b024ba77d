package dev.homing.protocol.arch;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.List;
import java.util.function.Predicate;

/**
 * Predicates on what code touches (a call, a method reference such as {@code System::nanoTime}, a field read), named
 * by the class that declares the member: {@code this.wait(10)} is {@code Object.wait}, whatever the receiver.
 */
public final class AccessTargets {

    public static final String CONSTRUCTOR = "<init>";

    private AccessTargets() {
    }

    public static DescribedPredicate<JavaAccess<?>> where(String description, Predicate<AccessTarget> test) {
        return DescribedPredicate.describe(description, access -> test.test(access.getTarget()));
    }

    public static String declaringClass(AccessTarget target) {
        return target.resolveMember().map(member -> member.getOwner().getName()).orElse(target.getOwner().getName());
    }

    /** Raw parameter type names of a called or referenced method or constructor; none for a field. */
    public static List<String> parameterTypes(AccessTarget target) {
        return target instanceof CodeUnitAccessTarget codeUnit
                ? codeUnit.getRawParameterTypes().stream().map(JavaClass::getName).toList()
                : List.of();
    }
}
