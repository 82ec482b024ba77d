package dev.homing.core.config;

import dev.homing.core.director.PolicyAssembler;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.plugin.Filter;
import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.Picker;
import dev.homing.core.plugin.Plugin;
import dev.homing.core.plugin.PluginContext;
import dev.homing.core.plugin.PluginRegistry;
import dev.homing.core.plugin.ProfileHandler;
import dev.homing.core.plugin.Scorer;
import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.core.plugins.prefix.ApproxPrefixCacheProducer;
import dev.homing.core.plugins.prefix.PrefixCacheScorer;
import dev.homing.core.plugins.profile.SingleProfileHandler;
import dev.homing.core.plugins.scorer.ActiveRequestScorer;
import dev.homing.core.plugins.scorer.KvCacheUtilizationScorer;
import dev.homing.core.plugins.scorer.NoHitLruScorer;
import dev.homing.core.plugins.scorer.QueueScorer;
import dev.homing.core.scheduling.SchedulerProfile;
import dev.homing.core.scheduling.WeightedScorer;
import java.util.ArrayList;
import java.util.List;

/**
 * What runs with no configuration: llm-d's built-in default (approximate prefix 3, queue 2, KV-cache utilisation 2,
 * max-score picker) plus two scorers at weight 1 that read what the router knows exactly:
 * <ul>
 *   <li>the newcomer spreader ({@code no-hit-lru-scorer}): 0.5 everywhere for a request some pod already holds, so it
 *       only orders where newcomers go;</li>
 *   <li>{@code active-request-scorer}: this router's requests in flight per endpoint, counted at the pick. Below
 *       saturation the queue scorer sees empty queues everywhere and cannot tell a pod running ten requests from an
 *       idle one; this can, and it is never stale.</li>
 * </ul>
 */
public final class DefaultPolicy {

    private DefaultPolicy() {
    }

    public static RoutingPolicy create(PluginRegistry registry, PluginContext ctx) {
        List<Plugin> plugins = new ArrayList<>();
        Plugin producer = registry.create(ApproxPrefixCacheProducer.TYPE, null, Parameters.empty(), ctx);
        plugins.add(producer);
        List<WeightedScorer> scorers = new ArrayList<>();
        scorers.add(scorer(registry, ctx, PrefixCacheScorer.TYPE, 3, plugins));
        scorers.add(scorer(registry, ctx, QueueScorer.TYPE, 2, plugins));
        scorers.add(scorer(registry, ctx, KvCacheUtilizationScorer.TYPE, 2, plugins));
        scorers.add(scorer(registry, ctx, NoHitLruScorer.TYPE, 1, plugins));
        scorers.add(scorer(registry, ctx, ActiveRequestScorer.TYPE, 1, plugins));
        Picker picker = (Picker) registry.create(MaxScorePicker.TYPE, null, Parameters.empty(), ctx);
        plugins.add(picker);
        ProfileHandler handler = (ProfileHandler) registry.create(SingleProfileHandler.TYPE, null, Parameters.empty(), ctx);
        plugins.add(handler);
        SchedulerProfile profile = new SchedulerProfile("default", List.<Filter>of(), scorers, picker);
        return PolicyAssembler.assemble(handler, List.of(profile), plugins);
    }

    private static WeightedScorer scorer(PluginRegistry registry, PluginContext ctx, String type, double weight,
                                         List<Plugin> plugins) {
        Scorer s = (Scorer) registry.create(type, null, Parameters.empty(), ctx);
        plugins.add(s);
        return new WeightedScorer(s, weight);
    }
}
