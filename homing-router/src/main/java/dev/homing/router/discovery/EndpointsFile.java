package dev.homing.router.discovery;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The endpoints file ({@link EndpointsYaml}) as the pool's discovery: read at start (a broken file stops start-up),
 * and again whenever it changes, the endpoints that join or leave going through {@link EndpointPool#setEndpoints}
 * like any membership change. A broken change is refused with its file:line in the log, and the running endpoints
 * stay, as a broken config change is.
 */
public final class EndpointsFile {

    private static final System.Logger LOG = System.getLogger(EndpointsFile.class.getName());

    private final Path file;
    private volatile List<Endpoint> current;
    private volatile String lastText;

    private EndpointsFile(Path file, String text, List<Endpoint> endpoints) {
        this.file = file;
        this.lastText = text;
        this.current = endpoints;
    }

    /** @throws ConfigException naming the file and line when it cannot be read or used */
    public static EndpointsFile load(Path file) throws ConfigException {
        String text = read(file);
        return new EndpointsFile(file, text, EndpointsYaml.parse(text, file.toString()));
    }

    public Path file() {
        return file;
    }

    /** The endpoints the file listed when last read successfully. */
    public List<Endpoint> current() {
        return current;
    }

    /**
     * Reads the file again; when its text changed and it can be used, sets the pool's endpoints to what it lists.
     *
     * @return what happened, for logs and tests
     */
    public Reload reload(EndpointPool pool) {
        String text;
        try {
            text = read(file);
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "endpoints reload refused, running endpoints kept: " + e.getMessage());
            return Reload.REFUSED;
        }
        if (text.equals(lastText)) {
            return Reload.UNCHANGED;
        }
        lastText = text;
        List<Endpoint> next;
        try {
            next = EndpointsYaml.parse(text, file.toString());
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "endpoints reload refused, running endpoints kept: " + e.getMessage());
            return Reload.REFUSED;
        }
        pool.setEndpoints(next);
        current = next;
        LOG.log(System.Logger.Level.INFO, "endpoints reloaded from " + file + ": " + next.size() + " endpoints");
        return Reload.APPLIED;
    }

    /** The outcome of a reload. */
    public enum Reload { UNCHANGED, APPLIED, REFUSED }

    private static String read(Path file) throws ConfigException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), 0, "cannot be read: " + e.getMessage());
        }
    }
}
