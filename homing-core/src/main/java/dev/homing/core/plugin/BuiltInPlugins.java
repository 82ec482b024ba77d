package dev.homing.core.plugin;

import dev.homing.core.plugins.datalayer.CoreMetricsExtractor;
import dev.homing.core.plugins.datalayer.K8sNotificationSource;
import dev.homing.core.plugins.datalayer.MetricsDataSource;
import dev.homing.core.plugins.datalayer.ModelsDataSource;
import dev.homing.core.plugins.decider.AlwaysDisaggMultimodalDecider;
import dev.homing.core.plugins.decider.AlwaysDisaggPdDecider;
import dev.homing.core.plugins.decider.PrefixBasedPdDecider;
import dev.homing.core.plugins.filter.ByLabelFilter;
import dev.homing.core.plugins.filter.LabelSelectorFilter;
import dev.homing.core.plugins.filter.PrefixCacheAffinityFilter;
import dev.homing.core.plugins.filter.RoleFilters;
import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.core.plugins.precise.PrecisePrefixCacheProducer;
import dev.homing.core.plugins.precise.PrecisePrefixCacheScorer;
import dev.homing.core.plugins.precise.TokenProducer;
import dev.homing.core.plugins.picker.RandomPicker;
import dev.homing.core.plugins.picker.WeightedRandomPicker;
import dev.homing.core.plugins.prefix.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.PrefixCacheScorer;
import dev.homing.core.plugins.profile.DataParallelProfileHandler;
import dev.homing.core.plugins.profile.DisaggHeadersHandler;
import dev.homing.core.plugins.profile.DisaggProfileHandler;
import dev.homing.core.plugins.profile.SingleProfileHandler;
import dev.homing.core.plugins.saturation.ConcurrencyDetector;
import dev.homing.core.plugins.saturation.UtilizationDetector;
import dev.homing.core.plugins.scorer.ActiveRequestScorer;
import dev.homing.core.plugins.scorer.ContextLengthAware;
import dev.homing.core.plugins.scorer.KvCacheUtilizationScorer;
import dev.homing.core.plugins.scorer.LatencyScorer;
import dev.homing.core.plugins.scorer.LoadAwareScorer;
import dev.homing.core.plugins.scorer.LoraAffinityScorer;
import dev.homing.core.plugins.scorer.NoHitLruScorer;
import dev.homing.core.plugins.scorer.PrefillLoadScorer;
import dev.homing.core.plugins.scorer.QueueScorer;
import dev.homing.core.plugins.scorer.RunningRequestsSizeScorer;
import dev.homing.core.plugins.scorer.SessionAffinityScorer;
import dev.homing.core.plugins.scorer.TokenLoadScorer;
import java.util.List;

/**
 * The registration of every built-in plugin type: its llm-d type name, its parameters with llm-d's defaults (each
 * factory reads every parameter it knows, so unread keys are reported as unknown), and its aliases.
 */
final class BuiltInPlugins {

    /** llm-d's older name for {@code kv-cache-utilization-scorer}. */
    static final String KV_CACHE_SCORER_ALIAS = "kv-cache-scorer";

    private BuiltInPlugins() {
    }

    static void registerAll(PluginRegistry r) {
        // Prefix cache
        r.register(ApproxPrefixCacheProducer.TYPE, ApproxPrefixCacheProducer::create);
        r.register(PrefixCacheScorer.TYPE, (name, p, ctx) -> new PrefixCacheScorer(name));
        r.register(PrecisePrefixCacheProducer.TYPE, PrecisePrefixCacheProducer::create);
        r.register(PrecisePrefixCacheScorer.TYPE, (name, p, ctx) -> new PrecisePrefixCacheScorer(name));
        r.register(TokenProducer.TYPE, (name, p, ctx) -> TokenProducer.create(TokenProducer.TYPE, name, p, ctx));
        r.register(TokenProducer.LEGACY_TYPE,
                (name, p, ctx) -> TokenProducer.create(TokenProducer.LEGACY_TYPE, name, p, ctx));

        // Scorers
        r.register(QueueScorer.TYPE, (name, p, ctx) -> new QueueScorer(name));
        r.register(KvCacheUtilizationScorer.TYPE, (name, p, ctx) -> new KvCacheUtilizationScorer(name));
        r.register(KV_CACHE_SCORER_ALIAS, (name, p, ctx) -> new KvCacheUtilizationScorer(name));
        r.register(NoHitLruScorer.TYPE, (name, p, ctx) -> {
            p.string("prefixPluginType", null); // llm-d names the prefix plugin; Homing reads the shared PrefixMatch
            p.string("prefixPluginName", null);
            return new NoHitLruScorer(name, p.integer("lruSize", 1024));
        });
        r.register(ActiveRequestScorer.TYPE, (name, p, ctx) -> {
            p.duration("requestTimeout", null); // deprecated in llm-d: requests are released when they end
            return new ActiveRequestScorer(name, p.integer("idleThreshold", 0), p.number("maxBusyScore", 1.0));
        });
        r.register(RunningRequestsSizeScorer.TYPE, (name, p, ctx) -> new RunningRequestsSizeScorer(name));
        r.register(LoadAwareScorer.TYPE,
                (name, p, ctx) -> new LoadAwareScorer(name, p.integer("threshold", LoadAwareScorer.DEFAULT_THRESHOLD)));
        r.register(TokenLoadScorer.TYPE, (name, p, ctx) -> {
            p.string("inFlightLoadProducerName", null); // Homing's endpoints carry this router's in-flight tokens
            return new TokenLoadScorer(name,
                    p.longValue("queueThresholdTokens", TokenLoadScorer.DEFAULT_QUEUE_THRESHOLD_TOKENS));
        });
        r.register(PrefillLoadScorer.TYPE, (name, p, ctx) -> new PrefillLoadScorer(name));
        r.register(SessionAffinityScorer.TYPE, (name, p, ctx) -> new SessionAffinityScorer(name));
        r.register(LoraAffinityScorer.TYPE, (name, p, ctx) -> new LoraAffinityScorer(name));
        r.register(ContextLengthAware.TYPE, (name, p, ctx) -> new ContextLengthAware(name,
                p.string("label", ContextLengthAware.DEFAULT_LABEL), p.bool("enableFiltering", false)));
        r.register(LatencyScorer.TYPE, LatencyScorer::create);

        // Filters
        r.register(RoleFilters.DECODE_TYPE, (name, p, ctx) -> RoleFilters.decode(name));
        r.register(RoleFilters.PREFILL_TYPE, (name, p, ctx) -> RoleFilters.prefill(name));
        r.register(RoleFilters.ENCODE_TYPE, (name, p, ctx) -> RoleFilters.encode(name));
        r.register(LabelSelectorFilter.TYPE, LabelSelectorFilter::create);
        r.register(LabelSelectorFilter.DEPRECATED_TYPE,
                LabelSelectorFilter::createDeprecated);
        r.register(ByLabelFilter.TYPE, ByLabelFilter::create);
        r.register(PrefixCacheAffinityFilter.TYPE, PrefixCacheAffinityFilter::create);
        r.register(UtilizationDetector.TYPE, UtilizationDetector::create);
        r.register(ConcurrencyDetector.TYPE, ConcurrencyDetector::create);

        // Pickers
        r.register(MaxScorePicker.TYPE, (name, p, ctx) -> new MaxScorePicker(name, p.integer("maxNumOfEndpoints", 1)));
        r.register(RandomPicker.TYPE, RandomPicker::create);
        r.register(WeightedRandomPicker.TYPE, WeightedRandomPicker::create);

        // Profile handlers, their deciders and headers
        r.register(SingleProfileHandler.TYPE, (name, p, ctx) -> new SingleProfileHandler(name));
        r.register(DisaggProfileHandler.TYPE, DisaggProfileHandler::create);
        r.register(DisaggProfileHandler.DEPRECATED_TYPE,
                DisaggProfileHandler::createDeprecated);
        r.register(DisaggHeadersHandler.TYPE, DisaggHeadersHandler::create);
        r.register(DisaggHeadersHandler.DEPRECATED_TYPE,
                DisaggHeadersHandler::createDeprecated);
        r.register(DataParallelProfileHandler.TYPE, DataParallelProfileHandler::create);
        r.register(PrefixBasedPdDecider.TYPE, PrefixBasedPdDecider::create);
        r.register(AlwaysDisaggPdDecider.TYPE, (name, p, ctx) -> new AlwaysDisaggPdDecider(name));
        r.register(AlwaysDisaggMultimodalDecider.TYPE, (name, p, ctx) -> new AlwaysDisaggMultimodalDecider(name));

        // Data layer and request parsers: configuration the router reads
        r.register(MetricsDataSource.TYPE, MetricsDataSource::create);
        r.register(CoreMetricsExtractor.TYPE, CoreMetricsExtractor::create);
        r.register(K8sNotificationSource.TYPE, K8sNotificationSource::create);
        r.register(ModelsDataSource.TYPE, ModelsDataSource::create);
        for (String type : DECLARED) {
            r.register(type, (name, p, ctx) -> new DeclaredPlugin(type, name));
        }
    }

    /**
     * Types with no parameters that configurations declare (see {@link DeclaredPlugin}):
     * {@code endpoint-notification-source} delivers endpoint added/removed events to extractors (Homing's discovery
     * announces removals to the pool); {@code models-data-extractor} turns a {@code /v1/models} answer into served
     * models and LoRA parents (the router's models scrape does it); the request parsers {@code openai-parser} (the
     * default, what the router speaks: completions, chat completions, responses, conversations, embeddings),
     * {@code vllmgrpc-parser} (vLLM's gRPC engine API), {@code passthrough-parser} (any payload, uninterpreted, so
     * prompt-based scorers have nothing to work with) and {@code vertexai-parser} (Vertex AI's PredictionService
     * ChatCompletions), selected by a configuration's parser reference.
     */
    static final List<String> DECLARED = List.of("endpoint-notification-source", "models-data-extractor",
            "openai-parser", "vllmgrpc-parser", "passthrough-parser", "vertexai-parser");
}
