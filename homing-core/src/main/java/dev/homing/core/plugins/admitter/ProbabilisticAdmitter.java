package dev.homing.core.plugins.admitter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleRandom;
import dev.homing.core.framework.scheduling.SchedulingException;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * llm-d's {@code probabilistic-admitter}: always admits requests of priority 0 or more, and rejects a sheddable one
 * (priority below 0) with probability {@code min(saturation^power · k, 1)}, where saturation is the mean over the
 * candidates of {@code max(waiting / queueDepthThreshold, kvUsage / kvCacheUtilThreshold)} (an endpoint never scraped
 * counts as 1, as llm-d counts one without metrics); no candidates, no rejection. Parameters, defaults and checks as
 * llm-d's factory: {@code queueDepthThreshold} 5 (an integer above 0), {@code kvCacheUtilThreshold} 0.8, {@code power}
 * 5 and {@code k} 300 (each a number above 0; llm-d's README calls the KV threshold a fraction, but its factory takes
 * any value above 0, so a threshold above 1 loads here too). Shedding reaches 100 % at saturation
 * {@code (1/k)^(1/power)}: about 0.32 with the defaults (llm-d's README gives 0.34).
 *
 * <p>A refusal is answered as llm-d's director answers any admitter's: a 500, "request cannot be admitted", without a
 * dropped-reason header ({@link SchedulingException#notAdmitted}); the plugin's own ResourceExhausted error is only
 * logged there, and here follows that message.
 *
 * <p>Upstream: {@code pkg/epp/framework/plugins/requestcontrol/admitter/probabilisticadmitter/plugin.go} in
 * llm-d/llm-d-inference-scheduler at 2aced307 (the same in llm-d/llm-d-router at 683100dc), and {@code HandleRequest}
 * in {@code pkg/epp/requestcontrol/director.go} (llm-d/llm-d-inference-scheduler at 0a4fd844).
 *
 * <p>Admission runs before the decision lock, on many threads at once, so the admitter draws from a generator of its
 * own, split from the host's injected one when the config is loaded and drawn under its own lock: a seeded run sheds
 * the same requests every time, and the pickers' generator is never touched off the lock.
 */
public final class ProbabilisticAdmitter extends NamedPlugin implements Admitter {

    public static final String TYPE = "probabilistic-admitter";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ProbabilisticAdmitter::create);

    private final int queueDepthThreshold;
    private final double kvCacheUtilThreshold;
    private final double power;
    private final double k;
    private final RandomGenerator random;

    public ProbabilisticAdmitter(String name, int queueDepthThreshold, double kvCacheUtilThreshold, double power,
                                 double k, RandomGenerator random) {
        super(TYPE, name);
        if (queueDepthThreshold <= 0) {
            throw new PluginConfigException("parameter 'queueDepthThreshold' must be > 0, got " + queueDepthThreshold);
        }
        requirePositive("kvCacheUtilThreshold", kvCacheUtilThreshold);
        requirePositive("power", power);
        requirePositive("k", k);
        this.queueDepthThreshold = queueDepthThreshold;
        this.kvCacheUtilThreshold = kvCacheUtilThreshold;
        this.power = power;
        this.k = k;
        this.random = random;
    }

    static ProbabilisticAdmitter create(String name, Parameters p, PluginContext ctx) {
        return new ProbabilisticAdmitter(name, p.integer("queueDepthThreshold", 5),
                p.number("kvCacheUtilThreshold", 0.8), p.number("power", 5.0), p.number("k", 300.0), new SplittableRandom(ctx.random().nextLong()));
    }

    private static void requirePositive(String parameter, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new PluginConfigException("parameter '" + parameter + "' must be a finite number > 0, got " + value);
        }
    }

    @Override
    public void admit(Cycle cycle, List<EndpointState> candidates) throws SchedulingException {
        if (!cycle.request().sheddable()) {
            return;
        }
        double saturation = saturation(candidates);
        double shed = sheddingProbability(saturation);
        if (shed > 0 && draw(cycle) < shed) {
            throw SchedulingException.notAdmitted(String.format(Locale.ROOT,
                    "sheddable request dropped by %s (pool saturation %.3f, shedding probability %.2f)", name(),
                    saturation, shed));
        }
    }

    private double draw(Cycle cycle) {
        if (cycle.isDryRun()) {
            return CycleRandom.of(cycle, random).nextDouble(); // its own throwaway generator
        }
        synchronized (random) {
            return random.nextDouble();
        }
    }

    /** llm-d's pool saturation over {@code endpoints}: the mean of each one's most constrained resource. */
    public double saturation(List<EndpointState> endpoints) {
        double total = 0;
        for (EndpointState e : endpoints) {
            total += e.metrics().known() ? Math.max((double) e.waitingQueueSize() / queueDepthThreshold,
                    e.kvCacheUsage() / kvCacheUtilThreshold) : 1.0;
        }
        return endpoints.isEmpty() ? 0 : total / endpoints.size();
    }

    /** The probability llm-d rejects a sheddable request at {@code saturation}. */
    public double sheddingProbability(double saturation) {
        return Math.min(Math.pow(saturation, power) * k, 1.0);
    }
}
