package dev.homing.core.framework.plugin;

/**
 * Something a configuration's reader should hear about a plugin's parameters without the file being refused. llm-d's
 * plugin factories decode their parameters with Go's {@code encoding/json}, which ignores keys the target struct does
 * not have, so a key no factory read is a warning here, not an error (a file llm-d starts with must start Homing).
 * A factory also leaves one for a parameter it reads and checks but that Homing will not act on, so that nothing a
 * configuration asks for is dropped silently.
 *
 * @param path    where in the parameters: {@code lruSiz}, {@code indexerConfig.kvBlockIndexConfig.maxPrefixBlocksToMatch},
 *                {@code engineConfigs[1].nme}; null for the plugin as a whole
 * @param message what to tell the reader about it
 */
public record ParameterNotice(String path, String message) {

    /** The same notice, seen from the parameters that hold the block at {@code where}. */
    public ParameterNotice under(String where) {
        return new ParameterNotice(path == null ? where : where + "." + path, message);
    }
}
