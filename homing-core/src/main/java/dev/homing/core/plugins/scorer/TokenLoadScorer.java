package dev.homing.core.plugins.scorer;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import java.util.List;

/**
 * llm-d's {@code token-load-scorer}: {@code 1 − min(1, inFlightTokens/queueThresholdTokens)}, with
 * {@code queueThresholdTokens} 4,194,304 (128 requests of 32k tokens). The tokens are this router's, counted at the
 * pick and released when each request ends (prompt plus expected output, as llm-d's token estimator counts them).
 */
public final class TokenLoadScorer extends NamedPlugin implements Scorer {

    public static final String TYPE = "token-load-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, TokenLoadScorer::create);
    public static final long DEFAULT_QUEUE_THRESHOLD_TOKENS = 4_194_304;

    private final double thresholdTokens;

    /** Parameters: {@code queueThresholdTokens}; llm-d's {@code inFlightLoadProducerName} is read and ignored. */
    static TokenLoadScorer create(String name, Parameters p, PluginContext ctx) {
        p.string("inFlightLoadProducerName", null); // Homing's endpoints carry this router's in-flight tokens
        return new TokenLoadScorer(name, p.longValue("queueThresholdTokens", DEFAULT_QUEUE_THRESHOLD_TOKENS));
    }

    public TokenLoadScorer(String name, long queueThresholdTokens) {
        super(TYPE, name);
        if (queueThresholdTokens <= 0) {
            throw new PluginConfigException("parameter 'queueThresholdTokens' must be > 0, got " + queueThresholdTokens);
        }
        this.thresholdTokens = queueThresholdTokens;
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            long tokens = candidates.get(i).inFlightTokens();
            scores[i] = tokens <= 0 ? 1.0 : 1.0 - Math.min(tokens, thresholdTokens) / thresholdTokens;
        }
        return scores;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.DISTRIBUTION;
    }
}
