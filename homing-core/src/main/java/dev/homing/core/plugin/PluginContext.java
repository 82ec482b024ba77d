package dev.homing.core.plugin;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.time.Ticker;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * What a plugin factory may use: the injected time and randomness, the endpoint pool (to hear of removed endpoints),
 * the plugins created before it (to reference one by name), and services the host provides (the router's token
 * source, say), looked up by type.
 */
public record PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool,
                            Function<String, Optional<Plugin>> plugins, Map<Class<?>, Object> services) {
    public PluginContext {
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(plugins, "plugins");
        services = Map.copyOf(services);
    }

    public PluginContext(Ticker ticker, RandomGenerator random, EndpointPool pool) {
        this(ticker, random, pool, name -> Optional.empty(), Map.of());
    }

    /** The same context with a service added. */
    public <T> PluginContext withService(Class<T> type, T service) {
        Map<Class<?>, Object> more = new java.util.HashMap<>(services);
        more.put(type, Objects.requireNonNull(service, "service"));
        return new PluginContext(ticker, random, pool, plugins, more);
    }

    /** The context a config resolution gives its plugins: this one, with lookups among the config's plugins. */
    public PluginContext withPlugins(Function<String, Optional<Plugin>> lookup) {
        return new PluginContext(ticker, random, pool, lookup, services);
    }

    public <T> Optional<T> service(Class<T> type) {
        return Optional.ofNullable(type.cast(services.get(type)));
    }

    public Optional<Plugin> plugin(String name) {
        return plugins.apply(name);
    }
}
