package dev.homing.router.kvevents;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code EndpointPickerConfig} of precise prefix-cache routing that Homing ships (what {@code homing up --precise}
 * runs): llm-d's precise producer and prefix scorer, with Homing's default weights and load scorers.
 */
public final class PreciseConfig {

    private static final String RESOURCE = "precise.yaml";

    private PreciseConfig() {
    }

    /** The YAML text. */
    public static String yaml() {
        try (InputStream in = PreciseConfig.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the router's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
