package dev.homing.router.discovery;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.router.config.ReloadOutcome;
import dev.homing.router.config.WatchedFile;
import java.nio.file.Path;
import java.util.List;

/**
 * The endpoints file ({@link EndpointsYaml}) as the pool's discovery: read at start (a broken file stops start-up),
 * then followed as a {@link WatchedFile} (a change is used once two reads agree on it), the endpoints that join or
 * leave going through {@link EndpointPool#setEndpoints} like any membership change. A broken change is refused with
 * its file:line in the log, and the running endpoints stay, as a broken config change is.
 */
public final class EndpointsFile {

    private static final System.Logger LOG = System.getLogger(EndpointsFile.class.getName());

    private final WatchedFile watched;
    private volatile List<Endpoint> current;

    private EndpointsFile(Path file, String text, List<Endpoint> endpoints) {
        this.watched = new WatchedFile(file, text, "endpoints", LOG);
        this.current = endpoints;
    }

    /** @throws ConfigException naming the file and line when it cannot be read or used */
    public static EndpointsFile load(Path file) throws ConfigException {
        String text = WatchedFile.read(file);
        return new EndpointsFile(file, text, EndpointsYaml.parse(text, file.toString()));
    }

    public Path file() {
        return watched.file();
    }

    /** The endpoints the file listed when last read successfully. */
    public List<Endpoint> current() {
        return current;
    }

    /**
     * Reads the file again; when a change has settled and can be used, sets the pool's endpoints to what it lists.
     *
     * @return what happened, for logs and metrics
     */
    public ReloadOutcome reload(EndpointPool pool) {
        return watched.poll(text -> {
            List<Endpoint> next = EndpointsYaml.parse(text, watched.file().toString());
            pool.setEndpoints(next);
            current = next;
            LOG.log(System.Logger.Level.INFO, "endpoints reloaded from " + watched.file() + ": " + next.size()
                    + " endpoints");
        });
    }
}
