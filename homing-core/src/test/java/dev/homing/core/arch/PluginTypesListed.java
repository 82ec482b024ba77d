package dev.homing.core.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.homing.core.framework.plugin.PluginType;
import java.util.List;

/** Each published PluginType field's value is an element (the same object) of the given list. */
final class PluginTypesListed extends ArchCondition<JavaClass> {

    private final List<PluginType> listed;

    PluginTypesListed(List<PluginType> listed) {
        super("list every public static final PluginType they declare in BuiltIns.TYPES");
        this.listed = listed;
    }

    @Override
    public void check(JavaClass type, ConditionEvents events) {
        for (JavaField field : PluginTypeFields.of(type)) {
            PluginType value = PluginTypeFields.valueOf(field);
            boolean found = listed.stream().anyMatch(t -> t == value);
            events.add(new SimpleConditionEvent(field, found, "PluginType " + field.getFullName() + " ('" + value
                    + "') is " + (found ? "" : "not ") + "listed in BuiltIns.TYPES"));
        }
    }
}
