package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code lora-affinity-scorer}, for a request whose target model is a LoRA adapter: 1.0 where the adapter is
 * already active; 0.8 where another adapter can still be loaded ({@code active + waiting < max_lora}); 0.6 where the
 * adapter is queued to load; 0 where the endpoint is full. The order matters: free room beats waiting in line. An
 * endpoint whose {@code max_lora} was never scraped (-1) has no known room.
 */
public final class LoraAffinityScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "lora-affinity-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new LoraAffinityScorer(name));

    public LoraAffinityScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        String adapter = cycle.request().targetModel(); // immutable sets refuse contains(null)
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            EndpointMetrics m = candidates.get(i).metrics();
            if (adapter != null && m.activeModels().contains(adapter)) {
                scores[i] = 1.0;
            } else if (m.activeModels().size() + m.waitingModels().size() < m.maxActiveModels()) {
                scores[i] = 0.8;
            } else if (adapter != null && m.waitingModels().contains(adapter)) {
                scores[i] = 0.6;
            }
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.AFFINITY;
    }
}
