package dev.homing.core.plugins.filter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleRandom;
import dev.homing.core.framework.scheduling.Filter;
import dev.homing.core.framework.scheduling.PrefixMatch;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * llm-d's {@code prefix-cache-affinity-filter}: narrows the candidates to the "sticky" ones, whose share of the
 * prompt in cache ({@link PrefixMatch}) is at least {@code affinityThreshold} (0.80), so a picker that spreads load
 * (weighted random) spreads it among warm endpoints only. With probability {@code explorationProbability} (0.01, from
 * the injected random) it keeps everyone, so other endpoints get warm too. No sticky endpoint, one candidate, or a
 * threshold of 0: everyone is kept.
 *
 * <p>llm-d also breaks stickiness when the best sticky endpoint's predicted TTFT exceeds the best other one's by more
 * than {@code maxTTFTPenaltyMs} (5000). Those predictions come from a latency predictor Homing does not have, and
 * without predictions llm-d's gate never fires; so here only the threshold applies and {@code maxTTFTPenaltyMs} is
 * checked but has no effect.
 */
public final class PrefixCacheAffinityFilter extends NamedPlugin implements Filter {

    public static final String TYPE = "prefix-cache-affinity-filter";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PrefixCacheAffinityFilter::create);

    private final double affinityThreshold;
    private final double explorationProbability;
    private final RandomGenerator random;

    public PrefixCacheAffinityFilter(String name, double affinityThreshold, double explorationProbability,
                                     double maxTTFTPenaltyMs, RandomGenerator random) {
        super(TYPE, name);
        if (!(affinityThreshold >= 0 && affinityThreshold <= 1)) {
            throw new PluginConfigException("parameter 'affinityThreshold' must be in [0, 1], got " + affinityThreshold);
        }
        if (!(explorationProbability >= 0 && explorationProbability <= 1)) {
            throw new PluginConfigException("parameter 'explorationProbability' must be in [0, 1], got "
                    + explorationProbability);
        }
        if (!(maxTTFTPenaltyMs >= 0)) {
            throw new PluginConfigException("parameter 'maxTTFTPenaltyMs' must be >= 0, got " + maxTTFTPenaltyMs);
        }
        this.affinityThreshold = affinityThreshold;
        this.explorationProbability = explorationProbability;
        this.random = Objects.requireNonNull(random, "random");
    }

    static PrefixCacheAffinityFilter create(String name, Parameters p, PluginContext ctx) {
        return new PrefixCacheAffinityFilter(name, p.number("affinityThreshold", 0.80),
                p.number("explorationProbability", 0.01), p.number("maxTTFTPenaltyMs", 5000), ctx.random());
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        if (candidates.size() <= 1 || affinityThreshold <= 0) {
            return candidates;
        }
        if (explorationProbability > 0
                && CycleRandom.of(cycle, random).nextDouble() < explorationProbability) {
            return candidates;
        }
        PrefixMatch match = cycle.get(PrefixMatch.KEY);
        if (match == null) {
            return candidates;
        }
        List<EndpointState> sticky = Filter.keep(candidates, e -> match.ratio(e) >= affinityThreshold);
        return sticky.isEmpty() ? candidates : sticky;
    }
}
