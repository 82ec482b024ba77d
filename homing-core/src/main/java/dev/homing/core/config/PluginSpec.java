package dev.homing.core.config;

/**
 * One entry of {@code plugins:}.
 *
 * @param name       the instance name ({@code type} when not given)
 * @param parameters the {@code parameters:} mapping as written, or null
 */
public record PluginSpec(String name, String type, ConfigNode parameters, int line) {
}
