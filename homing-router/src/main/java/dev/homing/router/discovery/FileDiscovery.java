package dev.homing.router.discovery;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.router.config.ConfigWatch;
import dev.homing.router.config.ReloadOutcome;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * An endpoints file ({@link EndpointsFile}) as the pool's discovery: what it listed at start is published and synced
 * at once (a file that cannot be used stops start-up, before this), then the file is read again every interval.
 */
public final class FileDiscovery implements Discovery {

    private static final System.Logger LOG = System.getLogger(FileDiscovery.class.getName());

    private final EndpointPool pool;
    private final EndpointsFile file;
    private final Consumer<ReloadOutcome> reloaded;
    private final Runnable syncChanged;
    private final ConfigWatch watch;
    private volatile boolean synced;

    /**
     * @param reloaded    told what each reload did (the router's reload metrics)
     * @param syncChanged told when {@link #synced()} changes
     */
    public FileDiscovery(EndpointPool pool, EndpointsFile file, Duration interval, Consumer<ReloadOutcome> reloaded,
                         Runnable syncChanged) {
        this.pool = pool;
        this.file = file;
        this.reloaded = reloaded;
        this.syncChanged = syncChanged;
        this.watch = new ConfigWatch("homing-endpoints-reload", interval, this::reload);
    }

    @Override
    public void start() {
        pool.setEndpoints(file.current());
        synced = true;
        syncChanged.run();
        watch.start();
    }

    private void reload() {
        try {
            reloaded.accept(file.reload(pool));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "endpoints reload failed", e);
        }
    }

    @Override
    public boolean synced() {
        return synced;
    }

    @Override
    public String describe() {
        return file.current().size() + " endpoints (" + file.file() + ", watched)";
    }

    @Override
    public void close() {
        watch.close();
    }
}
