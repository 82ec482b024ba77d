package dev.homing.core.config;

import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * What runs with no configuration, written as a config file ({@code homing-default.yaml}) and loaded like any other:
 * llm-d's built-in default (approximate prefix 3, queue 2, KV-cache utilisation 2, max-score picker) plus three
 * scorers that read what the router knows exactly:
 * <ul>
 *   <li>the newcomer spreader ({@code no-hit-lru-scorer}, 1): 0.5 everywhere for a request some pod already holds, so
 *       it only orders where newcomers go;</li>
 *   <li>{@code active-request-scorer} (1): this router's requests in flight per endpoint, counted at the pick. Below
 *       saturation the queue scorer sees empty queues everywhere and cannot tell a pod running ten requests from an
 *       idle one; this can, and it is never stale;</li>
 *   <li>{@code token-load-scorer} (3): the same requests weighed in tokens (prompt plus expected output), so a pod
 *       holding long conversations counts as busier than one holding short questions.</li>
 * </ul>
 * And the precise variant ({@code homing-precise.yaml}, what {@code homing up --precise} runs): the same weights with
 * llm-d's precise producer fed by the pods' KV-cache events; and the P/D one ({@code homing-pd.yaml}, what
 * {@code homing up --pd} runs): llm-d's {@code deploy/config/pd-epp-config.yaml} byte for byte, the copy of it that
 * {@code UpstreamConfigsTest} loads (its legacy {@code apiVersion} is warned about, as any file's). Every request goes
 * to a decode pod; when the part of its prompt that pod does not hold is at least {@code nonCachedTokens} (16) long,
 * a prefill pod is chosen too and named to the decode pod in {@code x-prefiller-host-port}, which llm-d's routing
 * sidecar on the decode pod acts on. {@link BuiltInConfig} names the three.
 */
public final class DefaultConfig {

    public static final String RESOURCE = "homing-default.yaml";
    public static final String PRECISE_RESOURCE = "homing-precise.yaml";
    public static final String PD_RESOURCE = "homing-pd.yaml";

    private DefaultConfig() {
    }

    public static String text() {
        return read(RESOURCE);
    }

    /** The precise config's YAML: one file for the router and the benchmark's {@code homing-precise} policy. */
    public static String preciseText() {
        return read(PRECISE_RESOURCE);
    }

    /** The P/D config's YAML: llm-d's {@code pd-epp-config.yaml} unchanged (role filters, the prefix-based decider). */
    public static String pdText() {
        return read(PD_RESOURCE);
    }

    static String read(String resource) {
        try (InputStream in = DefaultConfig.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ResolvedConfig resolve(PluginRegistry registry, PluginContext ctx) {
        return resolve(RESOURCE, registry, ctx);
    }

    /** The precise variant, resolved. */
    public static ResolvedConfig resolvePrecise(PluginRegistry registry, PluginContext ctx) {
        return resolve(PRECISE_RESOURCE, registry, ctx);
    }

    static ResolvedConfig resolve(String resource, PluginRegistry registry, PluginContext ctx) {
        try {
            return new ConfigResolver(registry).resolve(ConfigParser.parse(read(resource), resource), ctx);
        } catch (ConfigException e) {
            throw new IllegalStateException("the built-in config " + resource + " is broken: " + e.getMessage(), e);
        }
    }
}
