package dev.homing.core.plugins;

import dev.homing.core.framework.plugin.DeclaredPlugin;
import dev.homing.core.framework.plugin.PluginRegistry;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.plugins.admitter.LatencySloAdmitter;
import dev.homing.core.plugins.admitter.ProbabilisticAdmitter;
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
import dev.homing.core.plugins.picker.RandomPicker;
import dev.homing.core.plugins.picker.WeightedRandomPicker;
import dev.homing.core.plugins.prefix.PrecisePrefixCacheScorer;
import dev.homing.core.plugins.prefix.PrefixCacheScorer;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.PrecisePrefixCacheProducer;
import dev.homing.core.plugins.prefix.precise.TokenProducer;
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
import dev.homing.core.plugins.scorer.QueueDepthScorer;
import dev.homing.core.plugins.scorer.QueueScorer;
import dev.homing.core.plugins.scorer.RunningRequestsSizeScorer;
import dev.homing.core.plugins.scorer.SessionAffinityScorer;
import dev.homing.core.plugins.scorer.TokenLoadScorer;
import dev.homing.core.plugins.scorer.predicted.PredictedTtftScorer;
import dev.homing.core.plugins.flowcontrol.EdfOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.FcfsOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.GlobalStrictFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.PriorityThenTimeEvictionOrderPolicy;
import dev.homing.core.plugins.flowcontrol.PriorityUsageLimitPolicy;
import dev.homing.core.plugins.flowcontrol.RoundRobinFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.SheddableEvictionFilter;
import dev.homing.core.plugins.flowcontrol.StaticUsageLimitPolicy;
import java.util.List;

/**
 * Every plugin type Homing knows, under llm-d's names: the one list a configuration is read against. Each type is
 * declared by its class (factory, parameters and defaults, aliases, pairings), so adding a plugin is its file and one
 * line here.
 */
public final class BuiltIns {

    public static final List<PluginType> TYPES = List.of(
            // Prefix cache: producers and the scorers that read them
            ApproxPrefixCacheProducer.PLUGIN_TYPE,
            PrefixCacheScorer.PLUGIN_TYPE,
            PrecisePrefixCacheProducer.PLUGIN_TYPE,
            PrecisePrefixCacheScorer.PLUGIN_TYPE,
            TokenProducer.PLUGIN_TYPE,

            // Scorers
            QueueScorer.PLUGIN_TYPE,
            QueueDepthScorer.PLUGIN_TYPE,
            KvCacheUtilizationScorer.PLUGIN_TYPE,
            NoHitLruScorer.PLUGIN_TYPE,
            ActiveRequestScorer.PLUGIN_TYPE,
            RunningRequestsSizeScorer.PLUGIN_TYPE,
            LoadAwareScorer.PLUGIN_TYPE,
            TokenLoadScorer.PLUGIN_TYPE,
            PrefillLoadScorer.PLUGIN_TYPE,
            PredictedTtftScorer.PLUGIN_TYPE,
            SessionAffinityScorer.PLUGIN_TYPE,
            LoraAffinityScorer.PLUGIN_TYPE,
            ContextLengthAware.PLUGIN_TYPE,
            LatencyScorer.PLUGIN_TYPE,

            // Filters and saturation detectors
            RoleFilters.DECODE,
            RoleFilters.PREFILL,
            RoleFilters.ENCODE,
            LabelSelectorFilter.PLUGIN_TYPE,
            ByLabelFilter.PLUGIN_TYPE,
            PrefixCacheAffinityFilter.PLUGIN_TYPE,
            UtilizationDetector.PLUGIN_TYPE,
            ConcurrencyDetector.PLUGIN_TYPE,

            // Admitters: may refuse a request before it is scheduled
            ProbabilisticAdmitter.PLUGIN_TYPE,
            LatencySloAdmitter.PLUGIN_TYPE,
            // Flow control: fairness between flows, order within a flow, how full the pool may get, eviction
            GlobalStrictFairnessPolicy.PLUGIN_TYPE,
            RoundRobinFairnessPolicy.PLUGIN_TYPE,
            FcfsOrderingPolicy.PLUGIN_TYPE,
            EdfOrderingPolicy.PLUGIN_TYPE,
            StaticUsageLimitPolicy.PLUGIN_TYPE,
            PriorityUsageLimitPolicy.PLUGIN_TYPE,
            SheddableEvictionFilter.PLUGIN_TYPE,
            PriorityThenTimeEvictionOrderPolicy.PLUGIN_TYPE,

            // Pickers
            MaxScorePicker.PLUGIN_TYPE,
            RandomPicker.PLUGIN_TYPE,
            WeightedRandomPicker.PLUGIN_TYPE,

            // Profile handlers, their deciders and headers
            SingleProfileHandler.PLUGIN_TYPE,
            DisaggProfileHandler.PLUGIN_TYPE,
            DisaggHeadersHandler.PLUGIN_TYPE,
            DataParallelProfileHandler.PLUGIN_TYPE,
            PrefixBasedPdDecider.PLUGIN_TYPE,
            AlwaysDisaggPdDecider.PLUGIN_TYPE,
            AlwaysDisaggMultimodalDecider.PLUGIN_TYPE,

            // Data layer: configuration the router's scraper and discovery read
            MetricsDataSource.PLUGIN_TYPE,
            CoreMetricsExtractor.PLUGIN_TYPE,
            K8sNotificationSource.PLUGIN_TYPE,
            ModelsDataSource.PLUGIN_TYPE,
            // endpoint added/removed events for extractors: Homing's discovery announces removals to the pool
            DeclaredPlugin.type("endpoint-notification-source"),
            // a /v1/models answer turned into served models and LoRA parents: the router's models scrape does it
            DeclaredPlugin.type("models-data-extractor"),

            // Request parsers, selected by a configuration's parser reference: OpenAI's API (the default, what the
            // router speaks), vLLM's gRPC engine API, any payload uninterpreted (prompt-based scorers then have
            // nothing to work with), Vertex AI's PredictionService chat completions
            DeclaredPlugin.type("openai-parser"),
            DeclaredPlugin.type("vllmgrpc-parser"),
            DeclaredPlugin.type("passthrough-parser"),
            DeclaredPlugin.type("vertexai-parser"));

    private static final PluginRegistry REGISTRY = PluginRegistry.of(TYPES);

    private BuiltIns() {
    }

    /** The registry of {@link #TYPES}. */
    public static PluginRegistry registry() {
        return REGISTRY;
    }
}
