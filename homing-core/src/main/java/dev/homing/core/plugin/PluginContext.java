package dev.homing.core.plugin;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.time.Ticker;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * What a plugin factory may use: the injected time and randomness, the endpoint pool (to hear of removed endpoints),
 * and the plugins created before it (to reference one by name).
 */
public record PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool,
                            Function<String, Optional<Plugin>> plugins) {
    public PluginContext {
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(plugins, "plugins");
    }

    public PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool) {
        this(ticker, random, pool, name -> Optional.empty());
    }

    public Optional<Plugin> plugin(String name) {
        return plugins.apply(name);
    }
}
