package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.request.UsesTokens;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * llm-d's {@code token-producer} (and its older name {@code tokenizer}): gets the tokens the model server will see
 * for the request, once, before scheduling, and puts them in the cycle for precise matching. Homing asks the host's
 * {@link TokenSource} (the router: the render endpoint {@code vllm.url} names first when given, else a pod of the
 * pool), which caches by prompt prefix.
 *
 * <p>Parameters: {@code modelName} (read; the pods render for the model the request names), {@code backend} (vllm),
 * {@code vllm {url | http, timeout (5s), mmTimeout (30s)}} ({@code http} is the name llm-d gave the render endpoint's
 * base URL before {@code url}; Go durations), and {@code udsTokenizerConfig {socketFile, timeout (5s), maxRetries (3)}},
 * llm-d's tokenizer sidecar over a Unix socket: read and checked, but Homing has no UDS tokenizer, so a notice says it
 * is not used. As in llm-d, {@code vllm} and an enabled {@code udsTokenizerConfig} exclude each other. Homing's earlier
 * top-level {@code timeout} is still read; {@code vllm.timeout} wins.
 */
public final class TokenProducer extends NamedPlugin implements DataProducer, UsesTokens {

    public static final String TYPE = "token-producer";
    public static final String LEGACY_TYPE = "tokenizer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> create(TYPE, name, p, ctx))
            .alias(LEGACY_TYPE, (name, p, ctx) -> create(LEGACY_TYPE, name, p, ctx));

    private final String renderUrl;
    private final Duration timeout;
    private final TokenSource source;
    private final AtomicLong misses = new AtomicLong();

    public TokenProducer(String type, String name, String renderUrl, Duration timeout, TokenSource source) {
        super(type, name);
        this.renderUrl = renderUrl;
        this.timeout = timeout;
        this.source = source;
    }

    static TokenProducer create(String type, String name, Parameters p, PluginContext ctx) {
        p.string("modelName", null); // the pods render for the model the request names
        String backend = p.string("backend", "vllm");
        if (!backend.equals("vllm")) {
            throw new PluginConfigException("parameter 'backend' must be 'vllm' (the only renderer Homing speaks), got '"
                    + backend + "'");
        }
        Duration older = positive("timeout", p.duration("timeout", Duration.ofSeconds(5)));
        boolean vllm = p.has("vllm");
        Render render = NestedParameters.mapping(p, "vllm", v -> Render.read(v, older));
        boolean uds = NestedParameters.mapping(p, "udsTokenizerConfig", TokenProducer::udsEnabled);
        if (vllm && uds) {
            throw new PluginConfigException("only one of 'udsTokenizerConfig' or 'vllm' may be set, as in llm-d");
        }
        if (p.has("udsTokenizerConfig")) {
            p.notice("udsTokenizerConfig", "read and checked, but not used: Homing has no UDS tokenizer; tokens come"
                    + " from a vLLM render endpoint (vllm.url, else a pod of the pool)");
        }
        return new TokenProducer(type, name, render.url(), render.timeout(), ctx.tokens().orElse(null));
    }

    /** Where and how long to ask for a request's tokens. */
    private record Render(String url, Duration timeout) {
        static Render read(Parameters v, Duration older) {
            String url = v.string("url", null);
            String http = v.string("http", null);
            if (url != null && http != null) {
                throw new PluginConfigException("'url' and 'http' both name the render endpoint; give one");
            }
            String base = url != null ? url : http;
            Duration timeout = positive("timeout", v.duration("timeout", older));
            if (v.has("mmTimeout")) {
                positive("mmTimeout", v.duration("mmTimeout", null));
                v.notice("mmTimeout", "read and checked, but not used: Homing asks for a request's tokens with one"
                        + " timeout ('timeout'), whatever the request holds");
            }
            // a placeholder the deployment substitutes (${VLLM_RENDER_URL}) means no endpoint here: ask the pods
            boolean none = base == null || base.isBlank() || base.contains("${");
            return new Render(none ? null : base.replaceAll("/+$", ""), timeout);
        }
    }

    /** Reads llm-d's UDS tokenizer block; whether it selects that backend (a socket file is set). */
    private static boolean udsEnabled(Parameters u) {
        String socket = u.string("socketFile", "");
        positive("timeout", u.duration("timeout", Duration.ofSeconds(5)));
        if (u.integer("maxRetries", 3) < 0) {
            throw new PluginConfigException("parameter 'maxRetries' must be >= 0");
        }
        return !socket.isBlank();
    }

    private static Duration positive(String parameter, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new PluginConfigException("parameter '" + parameter + "' must be > 0, got " + d);
        }
        return d;
    }

    @Override
    public void prepare(Cycle cycle) {
        if (cycle.get(PromptTokens.KEY) == null && source != null
                && PromptTokens.obtain(cycle, source, renderUrl, timeout).isEmpty()) {
            misses.incrementAndGet();
        }
    }

    @Override
    public void produce(Cycle cycle, List<EndpointState> candidates) {
        // all the work is in prepare(), outside the decision lock
    }

    /** Requests whose tokens could not be had. */
    public long misses() {
        return misses.get();
    }
}
