package dev.homing.core.config;

/**
 * A reference to a plugin by name: {@code pluginRef} with an optional {@code weight} (scorers in a profile).
 *
 * @param weight null when not written (llm-d's default is 1.0)
 */
public record PluginRefSpec(String pluginRef, Double weight, int line) {
}
