package dev.homing.core.plugins.prefix.precise;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.request.TokenSource;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PromptTokens;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * llm-d's {@code token-producer} (and its older name {@code tokenizer}): gets the tokens the model server will see
 * for the request, once, before scheduling, and puts them in the cycle for precise matching. Homing asks the host's
 * {@link TokenSource} (the router: a pod of the pool, or {@code vllm.url} first when given), which caches by prompt
 * prefix. Parameters: {@code modelName}, {@code backend} (vllm), {@code vllm {url}}, {@code timeout} (5s).
 */
public final class TokenProducer extends NamedPlugin implements DataProducer {

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
        String url = NestedParameters.mapping(p, "vllm", v -> v.string("url", null));
        p.node("tokenizersPoolConfig");
        Duration timeout = p.duration("timeout", Duration.ofSeconds(5));
        return new TokenProducer(type, name, url == null || url.isBlank() || url.contains("${") ? null : url, timeout,
                ctx.tokens().orElse(null));
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
