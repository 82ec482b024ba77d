package dev.homing.core.scheduling;

import java.util.List;

/** One filter's effect in one profile run: which endpoints it kept. */
public record FilterStep(String name, String type, List<String> kept) {
    public FilterStep {
        kept = List.copyOf(kept);
    }
}
