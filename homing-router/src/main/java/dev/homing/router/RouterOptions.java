package dev.homing.router;

import dev.homing.core.endpoint.Endpoint;
import java.time.Duration;
import java.util.List;

/**
 * How to run a router.
 *
 * @param scrapeInterval    how often each endpoint's metrics are read (llm-d: 50 ms)
 * @param maxBodyBytes      largest request body accepted
 * @param responseTimeout   longest wait for an endpoint's response headers
 * @param maxAttempts       endpoints to try when one cannot be reached
 * @param creditUnreflected add this router's requests sent since the last scrape to the scraped load (see
 *                          {@link dev.homing.core.endpoint.EndpointLoad})
 */
public record RouterOptions(String host, int port, String adminHost, int adminPort, List<Endpoint> endpoints,
                            Duration scrapeInterval, Duration scrapeTimeout, Duration modelsInterval,
                            int maxBodyBytes, Duration connectTimeout, Duration responseTimeout, int maxAttempts,
                            boolean creditUnreflected, long seed, String poolName) {

    public RouterOptions {
        endpoints = List.copyOf(endpoints);
    }

    public static RouterOptions defaults(List<Endpoint> endpoints) {
        return new RouterOptions("127.0.0.1", 8000, "127.0.0.1", 9090, endpoints, Duration.ofMillis(50),
                Duration.ofSeconds(1), Duration.ofSeconds(5), 32 << 20, Duration.ofSeconds(2), Duration.ofMinutes(10),
                3, true, System.nanoTime(), "homing");
    }

    public RouterOptions withPorts(int apiPort, int adminApiPort) {
        return new RouterOptions(host, apiPort, adminHost, adminApiPort, endpoints, scrapeInterval, scrapeTimeout,
                modelsInterval, maxBodyBytes, connectTimeout, responseTimeout, maxAttempts, creditUnreflected, seed,
                poolName);
    }

    public RouterOptions withHost(String apiHost, String adminApiHost) {
        return new RouterOptions(apiHost, port, adminApiHost, adminPort, endpoints, scrapeInterval, scrapeTimeout,
                modelsInterval, maxBodyBytes, connectTimeout, responseTimeout, maxAttempts, creditUnreflected, seed,
                poolName);
    }
}
