package dev.homing.core.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import dev.homing.core.framework.plugin.PluginType;
import java.util.List;
import java.util.Set;

/** The {@code public static final PluginType} fields a class declares: how a plugin class publishes its type. */
final class PluginTypeFields {

    private static final Set<JavaModifier> PUBLISHED =
            Set.of(JavaModifier.PUBLIC, JavaModifier.STATIC, JavaModifier.FINAL);

    private PluginTypeFields() {
    }

    static List<JavaField> of(JavaClass type) {
        return type.getFields().stream()
                .filter(f -> f.getRawType().isEquivalentTo(PluginType.class) && f.getModifiers().containsAll(PUBLISHED))
                .toList();
    }

    /** The field's value, read by reflection (this initialises its class, as BuiltIns does). */
    static PluginType valueOf(JavaField field) {
        try {
            return (PluginType) field.reflect().get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field.getFullName(), e);
        }
    }
}
