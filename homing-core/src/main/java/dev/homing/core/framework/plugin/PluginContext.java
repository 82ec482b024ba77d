package dev.homing.core.framework.plugin;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.learned.LearnedState;
import dev.homing.core.precise.PreciseIndexFactory;
import dev.homing.core.time.Ticker;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * What a plugin factory may use, each named: the injected time and randomness, the endpoint pool (to hear of removed
 * endpoints), what the host provides (the tokens its model servers will see; where precise indexes live; where the
 * state learned from picks lives), and the plugins of the configuration created so far (to reference one by name).
 */
public final class PluginContext {

    private final Ticker ticker;
    private final RandomGenerator random;
    private final EndpointPool pool;
    private final TokenSource tokens;
    private final PreciseIndexFactory preciseIndexes;
    private final LearnedState learned;
    private final Function<String, Optional<Plugin>> plugins;

    private PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool, TokenSource tokens,
                          PreciseIndexFactory preciseIndexes, LearnedState learned,
                          Function<String, Optional<Plugin>> plugins) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.random = Objects.requireNonNull(random, "random");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tokens = tokens;
        this.preciseIndexes = Objects.requireNonNull(preciseIndexes, "preciseIndexes");
        this.learned = Objects.requireNonNull(learned, "learned");
        this.plugins = Objects.requireNonNull(plugins, "plugins");
    }

    /** A context with no token source, and precise indexes and learned state in this process's memory. */
    public PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool) {
        this(ticker, random, pool, null, PreciseIndexFactory.IN_MEMORY, LearnedState.IN_MEMORY, name -> Optional.empty());
    }

    /** The same context whose plugins obtain prompt tokens from {@code source}. */
    public PluginContext withTokens(TokenSource source) {
        return new PluginContext(ticker, random, pool, Objects.requireNonNull(source, "source"), preciseIndexes, learned,
                plugins);
    }

    /** The same context whose precise producers keep their holdings in indexes {@code factory} makes. */
    public PluginContext withPreciseIndexes(PreciseIndexFactory factory) {
        return new PluginContext(ticker, random, pool, tokens, factory, learned, plugins);
    }

    /**
     * The same context whose approximate prefix producers and newcomer spreaders keep what they learn from picks in
     * the state {@code state} makes.
     */
    public PluginContext withLearnedState(LearnedState state) {
        return new PluginContext(ticker, random, pool, tokens, preciseIndexes, Objects.requireNonNull(state, "state"),
                plugins);
    }

    /** The context a config resolution gives its plugins: this one, with lookups among the config's plugins. */
    public PluginContext withPlugins(Function<String, Optional<Plugin>> lookup) {
        return new PluginContext(ticker, random, pool, tokens, preciseIndexes, learned, lookup);
    }

    public Ticker ticker() {
        return ticker;
    }

    public RandomGenerator random() {
        return random;
    }

    public EndpointPool pool() {
        return pool;
    }

    /** Where the tokens a model server will see come from; empty when the host has none. */
    public Optional<TokenSource> tokens() {
        return Optional.ofNullable(tokens);
    }

    public PreciseIndexFactory preciseIndexes() {
        return preciseIndexes;
    }

    /** Where the approximate prefix index and the newcomer order live. */
    public LearnedState learnedState() {
        return learned;
    }

    public Optional<Plugin> plugin(String name) {
        return plugins.apply(name);
    }
}
