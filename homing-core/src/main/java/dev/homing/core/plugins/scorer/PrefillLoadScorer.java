package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * Homing's {@code prefill-load-scorer}: the prompt tokens an endpoint must prefill before this request's first
 * token, relative to the cheapest endpoint. For endpoint {@code e}:
 * <pre>
 *   cost(e)  = pending(e) + uncached(e)
 *   score(e) = 1 − (cost(e) − min cost) / max cost        (1 for all when every cost is 0)
 * </pre>
 * {@code pending(e)} is the uncached prompt tokens of this router's requests that {@code e} has not yet answered
 * (counted at the pick, dropped at the first response byte); {@code uncached(e)} is the part of this prompt that
 * {@code e} does not hold, from the prefix producer's match ({@link PrefixMatch}; the whole prompt without one).
 *
 * <p>Why: time to first token is, to first order, prefill work queued ahead plus the request's own. The prefix
 * scorer sees only the second term and the queue scorer counts requests, not tokens, from a scrape up to 50 ms old;
 * this scorer prices both in tokens, live. A request's home that is busy prefilling other long prompts loses to an
 * idle pod once the backlog outweighs the saved prefill. Scores are relative to the largest cost, so small
 * differences between comparable pods stay small and do not drown the affinity scorers.
 */
public final class PrefillLoadScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "prefill-load-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new PrefillLoadScorer(name));

    public PrefillLoadScorer(String name) {
        super(TYPE, name);
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        long prompt = cycle.promptTokens();
        long[] cost = new long[n];
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < n; i++) {
            EndpointState e = candidates.get(i);
            cost[i] = Math.max(0, e.pendingPrefillTokens()) + prompt - PrefixMatch.cachedTokens(cycle, e, prompt);
            min = Math.min(min, cost[i]);
            max = Math.max(max, cost[i]);
        }
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = max == 0 ? 1.0 : 1.0 - (double) (cost[i] - min) / max;
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.BALANCE;
    }
}
