package dev.homing.bench.policy;

/** A routing policy the lab can run: its name for {@code Policies.create} and what it is, in one line. */
public record PolicySpec(String name, String description) {
}
