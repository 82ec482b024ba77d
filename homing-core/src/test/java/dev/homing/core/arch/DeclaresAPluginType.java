package dev.homing.core.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/** The class declares at least one public static final PluginType field. */
final class DeclaresAPluginType extends ArchCondition<JavaClass> {

    DeclaresAPluginType() {
        super("declare a public static final PluginType");
    }

    @Override
    public void check(JavaClass type, ConditionEvents events) {
        boolean declares = !PluginTypeFields.of(type).isEmpty();
        events.add(new SimpleConditionEvent(type, declares, "plugin class " + type.getName() + " "
                + (declares ? "declares" : "declares no") + " public static final PluginType"));
    }
}
