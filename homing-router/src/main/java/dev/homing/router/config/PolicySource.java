package dev.homing.router.config;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginRegistry;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Where the routing policy comes from: a built-in config (the default, the precise or the P/D one), or an
 * {@code EndpointPickerConfig} file that is read at
 * start (a broken file stops start-up) and followed as a {@link WatchedFile}: a change is applied once two reads agree
 * on it, and a broken one is refused (the running policy stays). The warnings of a config that loads, built-in or
 * file, are logged each time it is loaded.
 */
public final class PolicySource {

    private static final System.Logger LOG = System.getLogger(PolicySource.class.getName());

    private final Path file;
    private final PluginRegistry registry;
    private final PluginContext ctx;
    private final AtomicReference<ResolvedConfig> current = new AtomicReference<>();
    private WatchedFile watched;
    private UnaryOperator<RoutingPolicy> installing = UnaryOperator.identity();

    private PolicySource(Path file, PluginRegistry registry, PluginContext ctx) {
        this.file = file;
        this.registry = registry;
        this.ctx = ctx;
    }

    /**
     * Loads the initial policy: the file's, or when {@code file} is null a built-in one, which is never reloaded.
     *
     * @param builtIn what runs without a file
     */
    public static PolicySource load(Path file, BuiltInConfig builtIn, PluginRegistry registry, PluginContext ctx)
            throws ConfigException {
        PolicySource s = new PolicySource(file, registry, ctx);
        if (file == null) {
            s.current.set(builtIn.resolve(registry, ctx));
        } else {
            String text = WatchedFile.read(file);
            s.current.set(new ConfigResolver(registry).resolve(ConfigParser.parse(text, file.toString()), ctx));
            s.watched = new WatchedFile(file, text, "config", LOG);
        }
        warn(s.current.get());
        return s;
    }

    /**
     * What a reloaded policy goes through before the director gets it (the trace recorder appends itself); the
     * composition root applies the same to the first policy.
     */
    public void installWith(UnaryOperator<RoutingPolicy> installing) {
        this.installing = installing;
    }

    public ResolvedConfig current() {
        return current.get();
    }

    public Path file() {
        return file;
    }

    /**
     * Reads the file again; when a change has settled and resolves, installs the new policy in the director.
     *
     * @return what happened, for logs and metrics
     */
    public ReloadOutcome reload(Director director) {
        if (watched == null) {
            return ReloadOutcome.UNCHANGED;
        }
        return watched.poll(text -> {
            ResolvedConfig next = new ConfigResolver(registry).resolve(ConfigParser.parse(text, file.toString()), ctx,
                    current.get());
            current.set(next);
            director.setPolicy(installing.apply(next.policy()));
            LOG.log(System.Logger.Level.INFO, "config reloaded from " + file);
            warn(next);
        });
    }

    /**
     * Logs what the file asks for that Homing loads without acting on (unknown parameters llm-d would ignore too, values
     * read but not used), each naming its line: a file that starts must never drop part of itself in silence.
     */
    private static void warn(ResolvedConfig config) {
        for (String w : config.warnings()) {
            LOG.log(System.Logger.Level.WARNING, "config warning: " + w);
        }
    }
}
