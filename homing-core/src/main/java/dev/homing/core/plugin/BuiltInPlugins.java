package dev.homing.core.plugin;

import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.core.plugins.prefix.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.PrefixCacheScorer;
import dev.homing.core.plugins.profile.SingleProfileHandler;
import dev.homing.core.plugins.scorer.ActiveRequestScorer;
import dev.homing.core.plugins.scorer.KvCacheUtilizationScorer;
import dev.homing.core.plugins.scorer.NoHitLruScorer;
import dev.homing.core.plugins.scorer.QueueScorer;

/**
 * The registration of every built-in plugin type: its llm-d type name, its parameters with llm-d's defaults (each
 * factory reads every parameter it knows, so unread keys are reported as unknown), and its aliases.
 */
final class BuiltInPlugins {

    private BuiltInPlugins() {
    }

    static void registerAll(PluginRegistry r) {
        r.register(ApproxPrefixCacheProducer.TYPE, ApproxPrefixCacheProducer::create);
        r.register(PrefixCacheScorer.TYPE, (name, p, ctx) -> new PrefixCacheScorer(name));
        r.register(QueueScorer.TYPE, (name, p, ctx) -> new QueueScorer(name));
        r.register(KvCacheUtilizationScorer.TYPE, (name, p, ctx) -> new KvCacheUtilizationScorer(name));
        r.register(NoHitLruScorer.TYPE, (name, p, ctx) -> {
            p.string("prefixPluginType", null); // llm-d names the prefix plugin; Homing reads the shared PrefixMatch
            p.string("prefixPluginName", null);
            return new NoHitLruScorer(name, p.integer("lruSize", 1024));
        });
        r.register(ActiveRequestScorer.TYPE, (name, p, ctx) -> {
            p.duration("requestTimeout", null); // deprecated in llm-d: requests are released when they end
            return new ActiveRequestScorer(name, p.integer("idleThreshold", 0), p.number("maxBusyScore", 1.0));
        });
        r.register(MaxScorePicker.TYPE, (name, p, ctx) -> new MaxScorePicker(name, p.integer("maxNumOfEndpoints", 1)));
        r.register(SingleProfileHandler.TYPE, (name, p, ctx) -> new SingleProfileHandler(name));
    }
}
