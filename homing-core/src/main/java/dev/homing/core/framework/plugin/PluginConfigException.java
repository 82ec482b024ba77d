package dev.homing.core.framework.plugin;

/** A plugin's parameters are wrong; the config loader adds where in the file. */
public final class PluginConfigException extends RuntimeException {
    public PluginConfigException(String message) {
        super(message);
    }
}
