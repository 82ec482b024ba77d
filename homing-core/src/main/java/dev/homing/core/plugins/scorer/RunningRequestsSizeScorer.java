package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code running-requests-size-scorer}: {@code (maxR − r)/(maxR − minR)} over the candidates' scraped running
 * requests ({@code vllm:num_requests_running}), 1.0 for all when they are equal. An endpoint not scraped yet counts as
 * running nothing, as in llm-d.
 */
public final class RunningRequestsSizeScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "running-requests-size-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new RunningRequestsSizeScorer(name));

    public RunningRequestsSizeScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        int[] running = new int[n];
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            running[i] = candidates.get(i).runningRequests();
            min = Math.min(min, running[i]);
            max = Math.max(max, running[i]);
        }
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = max == min ? 1.0 : (double) (max - running[i]) / (max - min);
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
