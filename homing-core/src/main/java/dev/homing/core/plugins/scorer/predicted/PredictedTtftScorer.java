package dev.homing.core.plugins.scorer.predicted;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.endpoint.PrefillWork;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.plugin.SelfReporting;
import dev.homing.core.framework.requestcontrol.Outcome;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.ScorerCategory;
import dev.homing.core.time.Ticker;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Homing's {@code predicted-ttft-scorer}: each candidate's predicted time to first token for this request, prefix
 * reuse counted in, lowest best. Per endpoint it prices the prefill that must run before the request's first token:
 * the uncached prompt tokens of this router's requests the endpoint has not yet answered (exact: each one's prefix
 * match at its pick), the scraped waiting requests that are not this router's (priced at the mean uncached prompt this
 * router sends), and this request's own uncached tokens after its prefix match there; with the attention those
 * tokens pay and the requests the endpoint is decoding beside them. {@link TtftModel} turns that into seconds, its
 * coefficients fitted online from the TTFTs this router observes, per endpoint; until a fit is trusted, candidates
 * are ranked by the tokens alone.
 *
 * <p>The cost of a candidate is the predicted TTFT plus, with {@code externality} κ > 0, the delay its own prefill
 * {@code w} adds to the requests that will arrive behind it: {@code κ · r · w · (b + w)}, where {@code b} is the
 * predicted backlog ahead of it and {@code r} the rate at which this router has been sending requests to each
 * endpoint (its recent dispatch rate over the candidates). At low load it is negligible and the fastest first token
 * wins; as the rate grows, a miss on a busy endpoint costs more than its own wait, so the request stays where its
 * prefix is. Score: {@code min cost / cost} (1 for the cheapest).
 *
 * <p>What it predicts and how far off it is are counted ({@link #predictions()}).
 */
public final class PredictedTtftScorer extends NamedPlugin implements Scorer, PreRequest, ResponseHooks, Rerouted,
        SelfReporting {

    public static final String TYPE = "predicted-ttft-scorer";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, PredictedTtftScorer::create);
    /** Time constant of the dispatch-rate estimate. */
    static final double RATE_SECONDS = 30;
    /** Picks the means of this router's requests (uncached tokens, own prefill seconds) follow. */
    static final int MEAN_WINDOW = 50;
    /** Predictions whose median error says whether the predictor knows the pods now, and the error it must beat. */
    static final int RECENT = 64;
    /** KV-cache usage from which, on every candidate, the pods are memory-bound. */
    static final double MEMORY_BOUND_KV = 0.9;
    static final double TRUSTED_ERROR = 0.5;
    /** The delay factor's cap: ρ/(1 − ρ) at ρ ≈ 0.98. */
    static final double MAX_DELAY_FACTOR = 50;
    /** Below this mean own prefill (seconds) the delay factor's denominator is not trusted. */
    static final double MIN_WORK_SECONDS = 0.01;

    private final CycleKey<Candidates> candidatesKey = CycleKey.of("predicted-ttft-candidates", Candidates.class);
    private final CycleKey<Placed> placedKey = CycleKey.of("predicted-ttft-placed", Placed.class);
    private final Ticker ticker;
    private final double externality;
    private final TtftModel model = new TtftModel();
    private final PredictionLog log = new PredictionLog(PredictionLog.DEFAULT_CAPACITY);
    private final Object rateLock = new Object();
    private double rate; // guarded by rateLock: dispatches per second, decayed to rateAt
    private long rateAt; // guarded by rateLock
    private final RunningMean meanUncached = new RunningMean(MEAN_WINDOW);
    private final RunningMean meanWorkSeconds = new RunningMean(MEAN_WINDOW);

    /** What score() computed for each candidate, for the pick to keep. */
    private record Candidates(String[] names, TtftModel.Work[] work, boolean[] unqueued, double[] predicted) {
    }

    /** The picked endpoint's queue entry and what its pick saw, until its first token or its end. */
    private static final class Placed {
        volatile String endpoint;
        final TtftModel.Pending entry;
        final boolean unqueued;
        final double predicted;
        volatile boolean learn = true;
        volatile boolean answered;
        volatile double observed = Double.NaN;

        Placed(String endpoint, TtftModel.Pending entry, boolean unqueued, double predicted) {
            this.endpoint = endpoint;
            this.entry = entry;
            this.unqueued = unqueued;
            this.predicted = predicted;
        }
    }

    /** Parameters: {@code externality} (κ, default 0: the fastest first token wins). */
    static PredictedTtftScorer create(String name, Parameters p, PluginContext ctx) {
        PredictedTtftScorer s = new PredictedTtftScorer(name, ctx.ticker(), p.number("externality", 0));
        ctx.pool().onRemoved(e -> s.model.forget(e.name()));
        return s;
    }

    public PredictedTtftScorer(String name, Ticker ticker, double externality) {
        super(TYPE, name);
        if (!(externality >= 0) || Double.isInfinite(externality)) {
            throw new PluginConfigException("parameter 'externality' must be a number >= 0, got " + externality);
        }
        this.ticker = ticker;
        this.externality = externality;
        this.rateAt = ticker.nanos();
    }

    @Override
    public double[] score(Cycle cycle, List<EndpointState> candidates) {
        int n = candidates.size();
        long now = cycle.startNanos();
        long prompt = cycle.promptTokens();
        String[] names = new String[n];
        TtftModel.Work[] work = new TtftModel.Work[n];
        boolean[] unqueued = new boolean[n];
        double[] predicted = new double[n];
        double[] cost = new double[n];
        double[] backlogs = new double[n];
        double[] ownSeconds = new double[n];
        for (int i = 0; i < n; i++) {
            EndpointState e = candidates.get(i);
            Seen seen = see(cycle, e, prompt, now);
            TtftModel.Work mine = seen.work();
            TtftModel.Estimate est = seen.estimate();
            double p = est.predicted();
            names[i] = e.name();
            work[i] = mine;
            unqueued[i] = seen.others() == 0 && !est.queued();
            predicted[i] = p;
            if (Double.isNaN(p)) {
                // no trusted fit yet: rank by the prefill tokens ahead and own
                cost[i] = Math.max(0, e.pendingPrefillTokens()) + seen.others() * meanUncached.value()
                        + mine.uncached();
            } else {
                backlogs[i] = est.backlog() * est.speed();
                ownSeconds[i] = est.ownSeconds() * est.speed();
                cost[i] = Math.max(1e-3, p);
            }
        }
        if (externality > 0 && !Double.isNaN(predicted[0])) {
            // Queueing theory's delay factor ρ/(1 − ρ) is the mean wait over the mean service time: read it off the
            // fleet's backlog now, so it is ~0 while queues are empty and grows as they build, and a request's own
            // prefill is charged for the waits it will add behind it.
            double leastBacklog = Double.POSITIVE_INFINITY;
            double leastKv = 1;
            for (int i = 0; i < n; i++) {
                leastBacklog = Math.min(leastBacklog, backlogs[i]);
                leastKv = Math.min(leastKv, work[i].kvUsage());
            }
            double kvFactor = leastKv >= 1 ? MAX_DELAY_FACTOR : leastKv / (1 - leastKv);
            double delayFactor = Math.min(MAX_DELAY_FACTOR, Math.max(kvFactor,
                    leastBacklog / Math.max(MIN_WORK_SECONDS, meanWorkSeconds.value())));
            for (int i = 0; i < n; i++) {
                cost[i] += externality * delayFactor * ownSeconds[i];
            }
        }
        cycle.put(candidatesKey, new Candidates(names, work, unqueued, predicted));
        if (abstains(predicted, work)) {
            double[] neutral = new double[n];
            Arrays.fill(neutral, 1.0);
            return neutral;
        }
        double min = Double.POSITIVE_INFINITY;
        for (double c : cost) {
            min = Math.min(min, c);
        }
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = min <= 0 ? (cost[i] <= min ? 1.0 : 0.0) : min / cost[i];
        }
        return scores;
    }

    /** One candidate as this request would find it: its prefill there, the other routers' waiting, the estimate. */
    private record Seen(TtftModel.Work work, int others, TtftModel.Estimate estimate) {
    }

    private Seen see(Cycle cycle, EndpointState e, long prompt, long now) {
        long cached = PrefixMatch.cachedTokens(cycle, e, prompt);
        long own = Math.max(0, prompt - cached);
        int ours = e.load().pendingPrefillRequests();
        // waiting requests this router did not send (another replica's, another gateway's)
        int others = Math.max(0, Math.max(0, e.metrics().waiting()) - ours);
        int decoding = Math.max(Math.max(0, e.metrics().running()), e.load().inFlightRequests() - ours);
        TtftModel.Work mine = new TtftModel.Work(own, PrefillWork.of(own, cached), decoding, e.kvCacheUsage());
        return new Seen(mine, others, model.estimate(e.name(), mine, others * meanWorkSeconds.value(), now));
    }

    /**
     * The predicted seconds to this request's first token on each candidate, as {@link #score} predicts them (prefix
     * reuse counted in when the cycle has a prefix match yet), for a plugin that judges a request by them (llm-d's
     * {@code latency-slo-admitter}); or null when the predictor has nothing trustworthy to say: its fit is not trusted
     * (not learnt yet, or learnt and gone stale) or its recent predictions were off by more than half. Changes
     * nothing: safe off the decision lock, and in a dry run.
     */
    public double[] predictTtftSeconds(Cycle cycle, List<EndpointState> candidates) {
        if (candidates.isEmpty() || log.recentMedianError(RECENT) > TRUSTED_ERROR) {
            return null;
        }
        long prompt = cycle.promptTokens();
        double[] out = new double[candidates.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = see(cycle, candidates.get(i), prompt, cycle.startNanos()).estimate().predicted();
            if (Double.isNaN(out[i])) {
                return null;
            }
        }
        return out;
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        Candidates c = cycle.get(candidatesKey);
        long now = cycle.startNanos();
        countDispatch(now);
        if (c == null) {
            return;
        }
        String target = result.target().name();
        for (int i = 0; i < c.names().length; i++) {
            if (c.names()[i].equals(target)) {
                TtftModel.Work w = c.work()[i];
                meanUncached.add(w.uncached());
                meanWorkSeconds.add(model.seconds(w));
                TtftModel.Pending entry = model.enqueue(target, w, now);
                cycle.put(placedKey, new Placed(target, entry, c.unqueued()[i], c.predicted()[i]));
                return;
            }
        }
    }

    /**
     * Served elsewhere than picked: its prefill is queued where it runs; what the pick saw was another endpoint's,
     * so nothing is learnt from its first token.
     */
    @Override
    public void rerouted(Cycle cycle, EndpointState picked, EndpointState served) {
        Placed p = cycle.get(placedKey);
        if (p == null) {
            return;
        }
        model.abandon(p.endpoint, p.entry);
        Candidates c = cycle.get(candidatesKey);
        TtftModel.Work w = c == null ? p.entry.work : work(c, served.name(), p.entry.work);
        Placed moved = new Placed(served.name(), model.enqueue(served.name(), w, ticker.nanos()), false,
                Double.NaN);
        moved.learn = false;
        cycle.put(placedKey, moved);
    }

    @Override
    public void onFirstToken(Cycle cycle, SchedulingResult result) {
        Placed p = cycle.get(placedKey);
        if (p == null || p.answered) {
            return;
        }
        p.answered = true;
        long now = ticker.nanos();
        double observed = (now - cycle.startNanos()) / 1e9;
        p.observed = observed;
        // the queue moves now; the fit waits for the usage, which says what the pod really had cached
        model.firstToken(p.endpoint, p.entry, false, p.learn ? p.predicted : Double.NaN, observed, now);
        if (p.learn && !Double.isNaN(p.predicted)) {
            log.record(p.predicted, observed);
        }
    }

    /**
     * Ended: a request that never had its first token leaves the queue; one that had it, with nothing queued ahead at
     * its pick, teaches the fit, with its uncached tokens as the response's usage reports them when it does (the
     * prefix match at the pick was an estimate; an approximate one can be far off).
     */
    @Override
    public void onComplete(Cycle cycle, SchedulingResult result, Outcome outcome) {
        Placed p = cycle.get(placedKey);
        if (p == null) {
            return;
        }
        if (!p.answered) {
            model.abandon(p.endpoint, p.entry); // never prefilled, or never told: it waits no longer
            return;
        }
        if (!p.learn || !p.unqueued || !(p.observed > 0)) {
            return;
        }
        TtftModel.Work w = p.entry.work;
        if (outcome.promptTokens() > 0 && outcome.cachedTokens() >= 0) {
            long cached = Math.min(outcome.cachedTokens(), outcome.promptTokens());
            long uncached = outcome.promptTokens() - cached;
            w = new TtftModel.Work(uncached, PrefillWork.of(uncached, cached), w.decoding(), w.kvUsage());
        }
        model.learn(w, p.observed);
    }

    /**
     * Whether the predictor says nothing this time: it has learnt the pods once but its fit is not trusted now, every
     * candidate's KV cache is nearly full (requests there wait for memory, a wait no count of prefill prices), or its
     * last predictions were off by more than half. Ranking pods by a wait it cannot see would steer requests away from their caches; the other scorers
     * decide instead, and the predictor keeps learning. Before it has learnt anything, it ranks by the tokens.
     */
    private boolean abstains(double[] predicted, TtftModel.Work[] work) {
        if (!model.matured()) {
            return false;
        }
        if (Double.isNaN(predicted[0])) {
            return true;
        }
        boolean memoryBound = true;
        for (TtftModel.Work w : work) {
            memoryBound &= w.kvUsage() >= MEMORY_BOUND_KV;
        }
        if (memoryBound) {
            return true;
        }
        double recent = log.recentMedianError(RECENT);
        return recent > TRUSTED_ERROR;
    }

    private static TtftModel.Work work(Candidates c, String name, TtftModel.Work otherwise) {
        for (int i = 0; i < c.names().length; i++) {
            if (c.names()[i].equals(name)) {
                return c.work()[i];
            }
        }
        return otherwise;
    }

    /** How far the predictions made so far were from the TTFTs observed. */
    public PredictionLog.Summary predictions() {
        return log.summary();
    }

    /**
     * The predictions compared with what happened ({@link PredictionLog.Summary}) and the fleet's coefficients: the
     * intercept in seconds, then seconds per 10k uncached tokens, per 10^8 attention pairs, per decoding request × 100k
     * tokens, per 64 decoding requests.
     */
    @Override
    public Map<String, Double> report() {
        PredictionLog.Summary s = log.summary();
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("predictions", (double) s.observations());
        out.put("medianRelativeError", s.medianError());
        out.put("p90RelativeError", s.p90Error());
        out.put("medianBias", s.medianBias());
        double[] c = model.coefficients();
        String[] names = {"interceptSeconds", "secondsPer10kTokens", "secondsPer1e8Attention",
            "secondsPerDecodingX100kTokens", "secondsPer64Decoding"};
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], model.trusted() ? c[i] : Double.NaN);
        }
        return out;
    }

    @Override
    public ScorerCategory category() {
        return ScorerCategory.BALANCE;
    }

    private double dispatchRate(long now) {
        synchronized (rateLock) {
            return rate * Math.exp(-Math.max(0, now - rateAt) / 1e9 / RATE_SECONDS);
        }
    }

    private void countDispatch(long now) {
        synchronized (rateLock) {
            rate = dispatchRate(now) + 1 / RATE_SECONDS;
            rateAt = Math.max(rateAt, now);
        }
    }
}
