package dev.homing.router.config;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.director.Director;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the routing policy comes from: a built-in config (the default, the precise or the P/D one), or an
 * {@code EndpointPickerConfig} file that is read at
 * start (a broken file stops start-up) and again whenever it changes (a broken change is refused and the running
 * policy stays). The warnings of a config that loads, built-in or file, are logged each time it is loaded.
 */
public final class PolicySource {

    private static final System.Logger LOG = System.getLogger(PolicySource.class.getName());

    private final Path file;
    private final PluginRegistry registry;
    private final PluginContext ctx;
    private final AtomicReference<ResolvedConfig> current = new AtomicReference<>();
    private volatile String lastText;

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
            String text = read(file);
            s.current.set(new ConfigResolver(registry).resolve(ConfigParser.parse(text, file.toString()), ctx));
            s.lastText = text;
        }
        warn(s.current.get());
        return s;
    }

    public ResolvedConfig current() {
        return current.get();
    }

    public Path file() {
        return file;
    }

    /**
     * Reads the file again; when its text changed and it resolves, installs the new policy in the director.
     *
     * @return what happened, for logs and metrics
     */
    public Reload reload(Director director) {
        if (file == null) {
            return Reload.UNCHANGED;
        }
        String text;
        try {
            text = read(file);
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "config reload refused, running config kept: " + e.getMessage());
            return Reload.REFUSED;
        }
        if (text.equals(lastText)) {
            return Reload.UNCHANGED;
        }
        lastText = text;
        try {
            ResolvedConfig next = new ConfigResolver(registry).resolve(ConfigParser.parse(text, file.toString()), ctx,
                    current.get());
            current.set(next);
            director.setPolicy(next.policy());
            LOG.log(System.Logger.Level.INFO, "config reloaded from " + file);
            warn(next);
            return Reload.APPLIED;
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.WARNING, "config reload refused, running config kept: " + e.getMessage());
            return Reload.REFUSED;
        }
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
