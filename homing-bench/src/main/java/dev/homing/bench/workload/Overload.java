package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * Overload of a fleet by flows of different importance: each request belongs to one flow (its fairness id,
 * {@code x-gateway-inference-fairness-id}) of a fixed priority, drawn with probability proportional to the flow's
 * relative rate, so Poisson arrivals split into independent Poisson flows (thinning). By default three flows:
 * {@code interactive} at priority 10, {@code standard} at 0 and {@code batch} at -1 (sheddable), batch at 5 times the
 * others' rate. The offered rate is {@code load} times {@code capacity_qps}, the fleet's measured capacity for this
 * mix (docs/BENCHMARKS.md, "suite-overload"), unless {@code qps} or {@code concurrency} is given.
 *
 * <p>Prompts are unique random words (nothing shared: admission, not cache affinity, is measured). Prompt and output
 * lengths are lognormal around the medians of the Azure LLM inference trace 2023's conversation service as the
 * Splitwise paper reports them (1,020 prompt tokens, 129 output tokens); the spreads and caps are ours.
 */
final class Overload implements ContentSource {

    static final String FLOWS = "flows";
    static final String LOAD = "load";
    static final String CAPACITY_QPS = "capacity_qps";

    /**
     * Requests per second the default 8-pod Qwen3-32B fleet completes on this mix when saturated (a closed loop of
     * 512 requests under round robin; docs/BENCHMARKS.md, "suite-overload", says how it was measured).
     */
    static final String MEASURED_CAPACITY = "80";

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter(FLOWS, "interactive:10:1,standard:0:1,batch:-1:5",
                    "the flows, ID:PRIORITY:RELATIVE_RATE,...; a request's flow is drawn by relative rate"),
            new WorkloadSpec.Parameter(LOAD, "3", "offered load as a multiple of capacity_qps (unless qps is given)"),
            new WorkloadSpec.Parameter(CAPACITY_QPS, MEASURED_CAPACITY, "the fleet's capacity in requests/s"),
            new WorkloadSpec.Parameter("prompt_len_median", "1020", "median prompt tokens (lognormal)"),
            new WorkloadSpec.Parameter("prompt_len_sigma", "0.8", "log-sd of prompt tokens"),
            new WorkloadSpec.Parameter("prompt_len_max", "8192", "prompt tokens cap"),
            new WorkloadSpec.Parameter("output_len_median", "129", "median max_tokens (lognormal)"),
            new WorkloadSpec.Parameter("output_len_sigma", "0.8", "log-sd of max_tokens"),
            new WorkloadSpec.Parameter("output_len_max", "1024", "max_tokens cap"));

    /** One flow: its fairness id, priority and share of the requests. */
    record Flow(String id, int priority, double weight) {
    }

    private static final int ONE_PASS = 1000;

    private final List<Flow> flows;
    private final double[] cumulative;
    private final double promptMu;
    private final double promptSigma;
    private final int promptMax;
    private final double outputMu;
    private final double outputSigma;
    private final int outputMax;
    private final RandomGenerator rng;

    Overload(Parameters p, RandomGenerator rng) {
        this.rng = rng;
        this.flows = parseFlows(p);
        cumulative = new double[flows.size()];
        double sum = 0;
        for (int i = 0; i < flows.size(); i++) {
            sum += flows.get(i).weight();
            cumulative[i] = sum;
        }
        promptMu = Math.log(p.decimal("prompt_len_median", 1, false));
        promptSigma = p.decimal("prompt_len_sigma", 0, false);
        promptMax = p.integer("prompt_len_max", 1);
        outputMu = Math.log(p.decimal("output_len_median", 1, false));
        outputSigma = p.decimal("output_len_sigma", 0, false);
        outputMax = p.integer("output_len_max", 1);
    }

    /** The offered rate when neither qps nor concurrency is given: load x capacity_qps, requests/s. */
    static String rate(Parameters p) {
        return String.format(Locale.ROOT, "%.6f", p.decimal(LOAD, 0, true) * p.decimal(CAPACITY_QPS, 0, true));
    }

    static List<Flow> parseFlows(Parameters p) {
        String text = p.string(FLOWS);
        List<Flow> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] f = part.trim().split(":");
            try {
                if (f.length != 3 || f[0].isBlank()) {
                    throw new IllegalArgumentException("three fields");
                }
                double w = Double.parseDouble(f[2]);
                if (!(w >= 0) || Double.isInfinite(w)) {
                    throw new IllegalArgumentException("a rate >= 0");
                }
                if (out.stream().anyMatch(x -> x.id().equals(f[0].trim()))) {
                    throw new IllegalArgumentException("distinct ids");
                }
                out.add(new Flow(f[0].trim(), Integer.parseInt(f[1].trim()), w));
            } catch (IllegalArgumentException e) {
                throw p.bad(FLOWS, text, "ID:PRIORITY:RELATIVE_RATE,... (" + e.getMessage() + ")");
            }
        }
        if (out.stream().mapToDouble(Flow::weight).sum() <= 0) {
            throw p.bad(FLOWS, text, "at least one flow with a rate above 0");
        }
        return List.copyOf(out);
    }

    List<Flow> flows() {
        return flows;
    }

    @Override
    public RequestContent next(int index) {
        Flow flow = flows.get(flow(rng.nextDouble()));
        int promptLen = clip(RandomDraws.lognormal(rng, promptMu, promptSigma), promptMax);
        int outputLen = clip(RandomDraws.lognormal(rng, outputMu, outputSigma), outputMax);
        TokenText prompt = TokenText.words(promptLen, rng);
        return new RequestContent(null, Prompt.text(prompt.text(), prompt.tokens()), outputLen, -1, -1, 0, -1,
                flow.id(), flow.priority());
    }

    private int flow(double uniform) {
        double u = uniform * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }

    private static int clip(double x, int max) {
        return (int) Math.max(1, Math.min(max, Math.round(x)));
    }

    @Override
    public int onePass() {
        return ONE_PASS;
    }
}
