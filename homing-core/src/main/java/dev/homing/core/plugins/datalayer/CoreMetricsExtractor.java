package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * llm-d's {@code core-metrics-extractor}: which metrics of a scrape mean waiting, running, KV usage, LoRA and cache
 * geometry, per inference engine. An endpoint's engine is its label {@code engineLabelKey} (default
 * {@value #ENGINE_LABEL}, then the older {@value #LEGACY_ENGINE_LABEL}); unlabelled endpoints and unknown engines use
 * {@code defaultEngine} (vllm). {@code engineConfigs} entries add engines or replace built-in ones by name; the
 * built-ins (vllm, sglang, trtllm-serve, triton-tensorrt-llm) fill in the rest. The router's scraper reads the
 * running config's extractor ({@link #builtIn} without one).
 */
public record CoreMetricsExtractor(String name, String engineLabelKey, String defaultEngine,
                                   Map<String, EngineConfig> engines) implements Plugin {

    public static final String TYPE = "core-metrics-extractor";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, CoreMetricsExtractor::create);
    public static final String ENGINE_LABEL = "llm-d.ai/engine-type";
    public static final String LEGACY_ENGINE_LABEL = "inference.networking.k8s.io/engine-type";
    /** llm-d's reserved key for the fallback mapping; no engine may be called this. */
    static final String DEFAULT_ENGINE_KEY = "default";

    public CoreMetricsExtractor {
        name = HttpSource.nameOr(name, TYPE);
        engines = Collections.unmodifiableMap(new LinkedHashMap<>(engines));
        if (!engines.containsKey(defaultEngine)) {
            throw new PluginConfigException("parameter 'defaultEngine': '" + defaultEngine
                    + "' is not among the engines: " + String.join(", ", engines.keySet()));
        }
    }

    /** What a config without a {@code core-metrics-extractor} reads: llm-d's defaults and built-in engines. */
    public static CoreMetricsExtractor builtIn() {
        Map<String, EngineConfig> engines = new LinkedHashMap<>();
        EngineConfig.BUILT_IN.forEach(e -> engines.put(e.name(), e));
        return new CoreMetricsExtractor(TYPE, ENGINE_LABEL, "vllm", engines);
    }

    public static CoreMetricsExtractor create(String name, Parameters p, PluginContext ctx) {
        String labelKey = p.string("engineLabelKey", ENGINE_LABEL);
        String defaultEngine = p.string("defaultEngine", "vllm");
        List<EngineConfig> configured = NestedParameters.list(p, "engineConfigs", EngineConfig::read);
        Map<String, EngineConfig> engines = new LinkedHashMap<>();
        for (EngineConfig e : configured) {
            if (engines.put(e.name(), e) != null) {
                throw new PluginConfigException("parameter 'engineConfigs': engine '" + e.name() + "' is defined twice");
            }
        }
        for (EngineConfig builtIn : EngineConfig.BUILT_IN) {
            engines.putIfAbsent(builtIn.name(), builtIn);
        }
        return new CoreMetricsExtractor(name, labelKey.isEmpty() ? ENGINE_LABEL : labelKey,
                defaultEngine.isEmpty() ? "vllm" : defaultEngine, engines);
    }

    /** The engine of an endpoint with these labels. */
    public EngineConfig engineFor(Map<String, String> labels) {
        String engine = labels.get(engineLabelKey);
        if (engine == null || engine.isEmpty()) {
            engine = labels.get(LEGACY_ENGINE_LABEL);
        }
        EngineConfig e = engine == null ? null : engines.get(engine);
        return e != null ? e : engines.get(defaultEngine);
    }

    /** Every metric family some engine reads, for scrapers that parse only what they need. */
    public Set<String> metricNames() {
        Set<String> out = new TreeSet<>();
        for (EngineConfig e : engines.values()) {
            Stream.of(e.queuedRequests(), e.runningRequests(), e.kvUsage(), e.lora(), e.cacheInfo(),
                    e.cacheBlockSize(), e.cacheNumBlocks(), e.kvUsageFallback()).filter(Objects::nonNull).forEach(s -> out.add(s.name()));
        }
        return out;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
