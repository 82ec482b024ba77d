package dev.homing.core.config.archfixture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Keeps "no I/O in core" the way DefaultConfig does: a resource inside core's own jar, read as an InputStream. */
public final class ReadsAClasspathResource {

    String read() {
        try (InputStream in = ReadsAClasspathResource.class.getResourceAsStream("default.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
