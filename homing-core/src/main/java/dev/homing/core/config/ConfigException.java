package dev.homing.core.config;

/**
 * A configuration that cannot be used. The message names the file and line, what is wrong, and the known choices
 * where there are some: {@code epp.yaml:12: unknown plugin type 'queue-scorr'; known types: ...}.
 */
public final class ConfigException extends Exception {

    private final String source;
    private final int line;

    public ConfigException(String source, int line, String message) {
        super(location(source, line) + ": " + message);
        this.source = source;
        this.line = line;
    }

    /** {@code file:line}, or the file alone when the line is 0; how errors and warnings begin. */
    static String location(String source, int line) {
        return source + (line > 0 ? ":" + line : "");
    }

    public String source() {
        return source;
    }

    /** 1-based line of the offending text, 0 when the problem is the file as a whole. */
    public int line() {
        return line;
    }
}
