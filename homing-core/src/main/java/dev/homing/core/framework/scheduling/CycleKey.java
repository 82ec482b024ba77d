package dev.homing.core.framework.scheduling;

import java.util.Objects;

/** A typed key for data that plugins share within one scheduling cycle. Identity semantics: one instance per datum. */
public final class CycleKey<T> {

    private final String name;
    private final Class<T> type;

    private CycleKey(String name, Class<T> type) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
    }

    public static <T> CycleKey<T> of(String name, Class<T> type) {
        return new CycleKey<>(name, type);
    }

    T cast(Object value) {
        return type.cast(value);
    }

    @Override
    public String toString() {
        return name;
    }
}
