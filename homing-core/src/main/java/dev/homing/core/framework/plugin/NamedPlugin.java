package dev.homing.core.framework.plugin;

import java.util.Objects;

/** Holds a plugin's type and instance name. */
public abstract class NamedPlugin implements Plugin {

    private final String type;
    private final String name;

    protected NamedPlugin(String type, String name) {
        this.type = Objects.requireNonNull(type, "type");
        this.name = name == null || name.isBlank() ? type : name;
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public String toString() {
        return name.equals(type) ? type : name + " (" + type + ")";
    }
}
