package dev.homing.core.plugins.admitter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.plugin.ReferencesPlugins;
import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.scorer.predicted.PredictedTtftScorer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * llm-d's {@code latency-slo-admitter}: refuses a sheddable request (priority below 0) that carries a latency SLO when
 * no candidate can meet it, rather than routing it to a certain miss. Requests of priority 0 or more, and requests
 * without an SLO (no {@code x-slo-ttft-ms} or {@code x-slo-tpot-ms} above 0; a value that is not a number counts as
 * none), always pass. Otherwise the request passes when any candidate is
 * <ul>
 *   <li>valid: its predicted time to first token is below the TTFT SLO (strictly; a request with only a TPOT SLO has
 *   a TTFT SLO of 0, which no prediction is below, as in llm-d);</li>
 *   <li>idle: its last scrape reported no running requests ({@code vllm:num_requests_running} 0); or</li>
 *   <li>cold: its last scrape reported its KV cache below 2 % used (predictions are not trusted there);</li>
 * </ul>
 * (an endpoint never scraped is both, as llm-d reads the zeroed metrics of one); and it passes, as llm-d fails open
 * without predictions, whenever the predictor has none to give. A refusal is answered as
 * llm-d's director answers any admitter's: a 500, "request cannot be admitted", with no dropped-reason header
 * ({@link SchedulingException#notAdmitted}). No parameters in llm-d at 520af478; {@code
 * latencyPredictionInfoProducerName} (added later upstream to name the producer whose predictions it reads) names the
 * {@code predicted-ttft-scorer} here, by default the configuration's only one.
 *
 * <p>Upstream: {@code pkg/epp/framework/plugins/requestcontrol/admitter/latencyslo/plugin.go} in llm-d/llm-d-router
 * at 45c38549 (its README in llm-d/llm-d-inference-scheduler at 12cb9eea); the predictions it reads, {@code
 * LatencyPredictionInfo.IsValid()}, from {@code validatePrediction} and {@code generatePredictions} in {@code
 * pkg/epp/framework/plugins/requestcontrol/dataproducer/predictedlatency/prediction.go} and the SLO headers from
 * {@code plugin.go} beside it (llm-d/llm-d-inference-scheduler at 159e739b and 14d7ffd7).
 *
 * <p>How it differs ({@link #DIFFERS}, also said as a notice when a config loads it):
 * <ul>
 *   <li>The predictions are Homing's {@code predicted-ttft-scorer}'s (its FCFS backlog of this router's unprefilled
 *   requests, the fitted prefill cost, per-pod speed), not llm-d's {@code predicted-latency-producer} and its XGBoost
 *   sidecar. It predicts the time to the first token only, as llm-d's producer does with {@code streamingMode: true};
 *   with llm-d's default ({@code streamingMode: false}) its "TTFT" is the whole request's latency.</li>
 *   <li>No TPOT is predicted, so the TPOT SLO is never what refuses a request: it counts as met on every candidate, as
 *   llm-d's producer counts it without {@code streamingMode} (and on prefill pods). A TPOT SLO alone still makes the
 *   request one with an SLO, whose TTFT SLO of 0 no candidate meets.</li>
 *   <li>Homing's director admits before its producers run (llm-d runs them first), so the prediction has no prefix
 *   match to count: it prices the whole prompt as uncached on every candidate, an over-estimate for a request whose
 *   prefix a pod holds, and counts the prompt's tokens as estimated, not tokenized.</li>
 *   <li>The predictor says nothing (and the request passes) until its fit is trusted, or while its recent
 *   predictions were off by more than half; llm-d's producer predicts from its first request.</li>
 *   <li>Headers: llm-d at 520af478 reads {@code x-slo-ttft-ms} and {@code x-slo-tpot-ms}; Homing also reads the later
 *   {@code x-llm-d-slo-ttft-ms} and {@code x-llm-d-slo-tpot-ms}, first.</li>
 * </ul>
 */
public final class LatencySloAdmitter extends NamedPlugin implements Admitter, ReferencesPlugins {

    public static final String TYPE = "latency-slo-admitter";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, LatencySloAdmitter::create);
    /** llm-d's SLO headers at 520af478, in milliseconds; and the later names, read first. */
    public static final String TTFT_SLO_HEADER = "x-slo-ttft-ms";
    public static final String TPOT_SLO_HEADER = "x-slo-tpot-ms";
    static final String TTFT_SLO_HEADER_NEW = "x-llm-d-slo-ttft-ms";
    static final String TPOT_SLO_HEADER_NEW = "x-llm-d-slo-tpot-ms";
    /** Below this KV-cache usage a pod is cold: predictions there are not trusted (llm-d's 0.02). */
    static final double COLD_KV_USAGE = 0.02;
    static final String PREDICTOR = "latencyPredictionInfoProducerName";
    static final String DIFFERS = "judged by Homing's predicted-ttft-scorer: it predicts the time to the first token "
            + "only (no TPOT: an x-slo-tpot-ms SLO never refuses a request), from a whole uncached prompt (Homing "
            + "admits before its producers match prefixes), and gives no predictions, so admits everything, until "
            + "its fit is trusted; without a predicted-ttft-scorer in the config it admits everything";

    private final String predictorName; // null: the configuration's only predicted-ttft-scorer, if any
    private volatile PredictedTtftScorer predictor;

    public LatencySloAdmitter(String name, String predictorName) {
        super(TYPE, name);
        this.predictorName = predictorName == null || predictorName.isEmpty() ? null : predictorName;
    }

    /** Judges by {@code predictor} (null: no predictions, every request passes). */
    public LatencySloAdmitter(String name, PredictedTtftScorer predictor) {
        this(name, predictor == null ? null : predictor.name());
        this.predictor = predictor;
    }

    static LatencySloAdmitter create(String name, Parameters p, PluginContext ctx) {
        LatencySloAdmitter a = new LatencySloAdmitter(name, p.string(PREDICTOR, ""));
        p.notice(null, DIFFERS);
        return a;
    }

    @Override
    public void resolveReferences(Map<String, ? extends Plugin> plugins) {
        if (predictorName != null) {
            Plugin named = plugins.get(predictorName);
            if (!(named instanceof PredictedTtftScorer s)) {
                throw new PluginConfigException("parameter '" + PREDICTOR + "': '" + predictorName + "' "
                        + (named == null ? "is not a plugin of this config" : "is a " + named.type()) + "; it must "
                        + "name a " + PredictedTtftScorer.TYPE + ", whose predictions this admitter reads; "
                        + choices(plugins));
            }
            predictor = s;
            return;
        }
        List<PredictedTtftScorer> all = plugins.values().stream().filter(PredictedTtftScorer.class::isInstance)
                .map(PredictedTtftScorer.class::cast).toList();
        if (all.size() > 1) {
            throw new PluginConfigException("the config has " + all.size() + " " + PredictedTtftScorer.TYPE
                    + "s; parameter '" + PREDICTOR + "' must say which one this admitter reads; " + choices(plugins));
        }
        predictor = all.isEmpty() ? null : all.get(0);
    }

    private static String choices(Map<String, ? extends Plugin> plugins) {
        String names = plugins.values().stream().filter(PredictedTtftScorer.class::isInstance).map(Plugin::name)
                .sorted().collect(Collectors.joining(", "));
        return PredictedTtftScorer.TYPE + "s: " + (names.isEmpty() ? "none" : names);
    }

    /** The predictor whose predictions it reads, or null. */
    public PredictedTtftScorer predictor() {
        return predictor;
    }

    @Override
    public void admit(Cycle cycle, List<EndpointState> candidates) throws SchedulingException {
        if (!cycle.request().sheddable()) {
            return;
        }
        double ttftSlo = slo(cycle, TTFT_SLO_HEADER_NEW, TTFT_SLO_HEADER);
        double tpotSlo = slo(cycle, TPOT_SLO_HEADER_NEW, TPOT_SLO_HEADER);
        if (!(ttftSlo > 0 || tpotSlo > 0)) {
            return; // no SLO: nothing to judge by
        }
        PredictedTtftScorer p = predictor;
        double[] ttft = p == null ? null : p.predictTtftSeconds(cycle, candidates);
        if (ttft == null) {
            return; // no predictions: fail open, as llm-d
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < candidates.size(); i++) {
            EndpointState e = candidates.get(i);
            double ms = ttft[i] * 1000;
            boolean valid = ms < ttftSlo; // the TPOT half counts as met: nothing predicts it
            // both on the scrape as llm-d reads it; never scraped reads as zeros there, so idle and cold here
            boolean idle = e.runningRequests() == 0;
            boolean cold = !(e.metrics().kvCacheUsage() >= COLD_KV_USAGE);
            if (valid || idle || cold) {
                return;
            }
            best = Math.min(best, ms);
        }
        throw SchedulingException.notAdmitted(String.format(Locale.ROOT,
                "no valid endpoint available to serve the request (%s: sheddable request, priority %d; TTFT SLO "
                        + "%.0f ms, best predicted %.0f ms over %d busy endpoints)", name(),
                cycle.request().priority(), ttftSlo, best, candidates.size()));
    }

    /** The SLO in ms a header gives (the later name first), or 0: absent or not a number, as llm-d reads it. */
    private static double slo(Cycle cycle, String name, String oldName) {
        String v = cycle.request().header(name);
        if (v == null) {
            v = cycle.request().header(oldName);
        }
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
