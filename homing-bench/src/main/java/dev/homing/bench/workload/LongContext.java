package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Long-context chat sessions shaped after published statistics of production traces (docs/BENCHMARKS.md,
 * "The long-context workload", names the sources and why each default is what it is):
 * <ul>
 *   <li><b>Prompt lengths</b>: a session's first prompt has a lognormal length, {@code e^(mu + sigma Z)} tokens,
 *       clipped to {@code [system + 1 + user, prompt_len_max]}. Defaults from the opening requests of Mooncake's
 *       conversation trace (kvcache-ai/Mooncake, FAST'25 release, {@code traces/conversation_trace.jsonl}: mean
 *       12.6k, median 8.6k, max 87k tokens, log-sd 1.06; paper average ≈12k): sigma 1.06, and mu 8.88 so that the
 *       lognormal's mean e^(mu + sigma²/2) is the sample's 12.6k. Requests then average 11-13k tokens, 7-9 % are
 *       over 32k and the tail reaches the 128k context.</li>
 *   <li><b>Sessions</b>: a geometric number of turns (mean {@code turns_mean}); each turn's prompt is the previous
 *       prompt plus the previous answer (an assistant message of its {@code max_tokens} words) plus a new user
 *       message, so the context grows turn by turn; a session ends early when its next prompt would pass
 *       {@code prompt_len_max}. A turn is sent a think time after the previous turn's answer: lognormal with median
 *       {@code think_median_s} and {@code think_sigma}, at most {@code think_max_s} (defaults from the inter-turn
 *       gaps of an Alibaba agentic trace, median 1.6 s, mean 37 s, p90 44 s).</li>
 *   <li><b>Recurring contexts</b>: every prompt starts with one {@code system_prompt_len} system prompt (Mooncake's
 *       conversation trace opens every request with the same block); a {@code doc_share} of sessions then carry the
 *       leading part of one of {@code num_docs} contexts (a document, a user's files or instructions; each of a
 *       lognormal length like a prompt's), chosen by Zipf's law with exponent {@code doc_zipf_s} (context k, from 0,
 *       with probability ∝ 1/(k+1)^s); the rest of a first prompt is the session's own text, then the user's
 *       message. A context is made when first read, from a stream of its own, so a large catalogue costs only what
 *       the run reads.</li>
 *   <li><b>Arrivals</b>: sessions start with Gamma inter-arrival times of shape {@code arrival_shape} (coefficient of
 *       variation 1/sqrt(shape); 0.5, BurstGPT's generator default, gives ≈1.41: bursts and lulls), at
 *       {@code qps / turns_mean} sessions/s, so {@code qps} is the offered request rate as in every workload; later
 *       turns follow their answers.</li>
 *   <li><b>Output</b>: {@code output_len} tokens (Mooncake's conversation trace: mean 353, median 362).</li>
 * </ul>
 * {@code turns_mean}, {@code doc_share}, {@code num_docs} and {@code doc_zipf_s} are calibrated together so that the
 * reuse has the shape of Mooncake's: one pooled LRU cache of 1,000 of its 512-token blocks hits about 30 % of the
 * prompt tokens (Mooncake's technical report, arXiv 2407.00079v3 §4.2), and an infinite cache 35-65 % (Mooncake's
 * traces 37-59 %, Bailian's 54-62 %). Sessions are drawn one after another from the content generator, so session i
 * asks the same whatever the load; only when it starts depends on the arrival generator. Requests are ordered by
 * their nominal time: the session's start plus, for each turn before, its answer at {@code answer_ms_per_token} per
 * output token and the think time after it (a run sends later turns by their real answers). Memory is bounded: at
 * most {@link #MAX_PROMPT_TOKENS} prompt tokens in all (a chat's message texts are shared between its turns; its
 * token ids are not).
 */
final class LongContext {

    static final List<WorkloadSpec.Parameter> PARAMETERS = List.of(
            new WorkloadSpec.Parameter("prompt_len_mu", "8.88", "log-mean of a session's first prompt length"
                    + " (tokens = e^(mu + sigma Z))"),
            new WorkloadSpec.Parameter("prompt_len_sigma", "1.06", "log-standard deviation of that length"),
            new WorkloadSpec.Parameter("prompt_len_max", "128000", "longest prompt: first prompts are clipped to it,"
                    + " a session ends before a turn would pass it"),
            new WorkloadSpec.Parameter("system_prompt_len", "512", "tokens of the system prompt every prompt starts"
                    + " with"),
            new WorkloadSpec.Parameter("num_docs", "30000", "recurring contexts (documents, a user's files or"
                    + " instructions) that sessions open with"),
            new WorkloadSpec.Parameter("doc_zipf_s", "1.1", "Zipf exponent of the contexts' popularity"),
            new WorkloadSpec.Parameter("doc_share", "0.8", "share of sessions that open with a recurring context"),
            new WorkloadSpec.Parameter("turns_mean", "1.5", "mean turns of a session (geometric)"),
            new WorkloadSpec.Parameter("user_len", "150:100:20:1000", "tokens of each user message: N or"
                    + " mean:std_dev:min:max"),
            new WorkloadSpec.Parameter("output_len", "350:150:16:1024", "max_tokens of each turn, and the length of"
                    + " the answer later turns carry: N or mean:std_dev:min:max"),
            new WorkloadSpec.Parameter("think_median_s", "1.6", "median seconds from an answer to the next turn"),
            new WorkloadSpec.Parameter("think_sigma", "2.5", "log-standard deviation of the think time"),
            new WorkloadSpec.Parameter("think_max_s", "600", "longest think time, seconds"),
            new WorkloadSpec.Parameter("answer_ms_per_token", "25", "milliseconds an answer takes per output token,"
                    + " for the nominal order of turns only (a run sends a turn its think time after the real answer)"),
            new WorkloadSpec.Parameter("arrival_shape", "0.5", "Gamma shape of the sessions' inter-arrival times"
                    + " (CV = 1/sqrt(shape); 1 is Poisson)"));

    /** Guards the heap: every turn's token ids are held, 4 bytes each (≈1.6 GB). */
    static final long MAX_PROMPT_TOKENS = 400_000_000L;

    private final RandomGenerator rng;
    private final double mu;
    private final double sigma;
    private final int maxPrompt;
    private final TokenText system;
    /** Documents made when first used, each from its own stream, so a large catalogue costs only what is read. */
    private final TokenText[] docs;
    private final long docSeed;
    private final double[] docCumulative;
    private final double docShare;
    private final double turnsMean;
    private final LengthDistribution user;
    private final LengthDistribution output;
    private final double thinkMu;
    private final double thinkSigma;
    private final double thinkMax;
    private final double answerNanosPerToken;

    private LongContext(Parameters p, RandomGenerator rng) {
        this.rng = rng;
        this.mu = p.decimal("prompt_len_mu", 0, false);
        this.sigma = p.decimal("prompt_len_sigma", 0, false);
        int systemLen = p.integer("system_prompt_len", 0);
        this.user = p.length("user_len", 1);
        this.output = p.length("output_len", 1);
        this.maxPrompt = p.integer("prompt_len_max", systemLen + user.max() + 16);
        int numDocs = p.integer("num_docs", 1);
        double zipf = p.decimal("doc_zipf_s", 0, false);
        this.docShare = p.decimal("doc_share", 0, false);
        if (docShare > 1) {
            throw p.bad("doc_share", p.string("doc_share"), "a share from 0 to 1");
        }
        this.turnsMean = p.decimal("turns_mean", 1, false);
        this.thinkMu = Math.log(p.decimal("think_median_s", 0, true));
        this.thinkSigma = p.decimal("think_sigma", 0, false);
        this.thinkMax = p.decimal("think_max_s", 0, false);
        this.answerNanosPerToken = p.decimal("answer_ms_per_token", 0, false) * 1e6;
        system = TokenText.words(systemLen, rng);
        docs = new TokenText[numDocs];
        docSeed = rng.nextLong();
        docCumulative = new double[numDocs];
        double sum = 0;
        for (int k = 0; k < numDocs; k++) {
            sum += Math.pow(k + 1, -zipf);
            docCumulative[k] = sum;
        }
    }

    /** The workload: sessions started by the arrival generator, asked by the content generator. */
    static Workload create(String name, Parameters p, RandomGenerator content, RandomGenerator arrivals) {
        if (p.isGiven(Arrivals.CONCURRENCY)) {
            throw p.bad(Arrivals.CONCURRENCY, p.string(Arrivals.CONCURRENCY), "nothing: long-context sessions arrive"
                    + " on a schedule and follow their answers; give qps");
        }
        LongContext g = new LongContext(p, content);
        double shape = p.decimal("arrival_shape", 0, true);
        QpsLadder ladder = ladder(p);
        List<Integer> stageOf = new ArrayList<>();
        long[] starts = ladder.gammaArrivals(arrivals, Arrivals.MAX_REQUESTS, stageOf, 1 / g.turnsMean, shape);
        int cap = p.isGiven(Arrivals.NUM_REQUESTS) ? p.integer(Arrivals.NUM_REQUESTS, 1) : Arrivals.MAX_REQUESTS;
        List<Turn> turns = new ArrayList<>();
        long tokens = 0;
        for (int s = 0; s < starts.length; s++) {
            for (Turn t : g.session(s, starts[s], stageOf.get(s))) {
                tokens += t.content.prompt().tokens().length;
                if (tokens > MAX_PROMPT_TOKENS || turns.size() >= Arrivals.MAX_REQUESTS) {
                    throw p.bad(Arrivals.QPS, p.string(Arrivals.QPS), "a load whose prompts hold at most "
                            + MAX_PROMPT_TOKENS + " tokens and " + Arrivals.MAX_REQUESTS + " requests; lower it,"
                            + " shorten it, or set num_requests");
                }
                turns.add(t);
            }
        }
        turns.sort(Comparator.comparingLong(Turn::nominal).thenComparingInt(t -> t.content.conversation())
                .thenComparingInt(t -> t.content.turn()));
        List<WorkloadRequest> requests = new ArrayList<>(Math.min(cap, turns.size()));
        String model = p.string("model");
        boolean ignoreEos = p.bool("ignore_eos");
        for (Turn t : turns.subList(0, Math.min(cap, turns.size()))) {
            RequestContent c = t.content;
            requests.add(new WorkloadRequest(name + "-" + requests.size(), t.nominal, t.stage, model, c.prompt(),
                    c.maxTokens(), ignoreEos, c.group(), c.conversation(), c.turn(), c.gapNanos()));
        }
        if (requests.isEmpty()) {
            throw p.bad(Arrivals.QPS, p.string(Arrivals.QPS), "a load that starts at least one session");
        }
        p.note(Workloads.ARRIVAL, "gamma sessions");
        p.note("sessions", requests.stream().mapToInt(WorkloadRequest::conversation).distinct().count());
        return new Workload(name, requests, ladder.rates(), 0, p.used());
    }

    private static QpsLadder ladder(Parameters p) {
        String text = p.string(Arrivals.QPS);
        boolean isLadder = text.toLowerCase(Locale.ROOT).contains("x");
        double seconds;
        if (isLadder) {
            if (p.isGiven(Arrivals.DURATION)) {
                throw p.bad(Arrivals.DURATION, p.string(Arrivals.DURATION), "nothing: a qps ladder's stages say how"
                        + " long");
            }
            seconds = Double.NaN;
        } else {
            seconds = p.decimal(Arrivals.DURATION, 0, true);
        }
        QpsLadder q;
        try {
            q = QpsLadder.parse(text, seconds);
        } catch (IllegalArgumentException e) {
            throw p.bad(Arrivals.QPS, text, "QPS, or stages QPSxSECONDS,... (" + e.getMessage() + ")");
        }
        if (isLadder) {
            p.note(Arrivals.QPS, q.toString());
        }
        return q;
    }

    /** One request of a session, with its nominal time and its session's stage. */
    private record Turn(long nominal, int stage, RequestContent content) {
    }

    /** Session {@code s}: its turns in order, the first at {@code start}. */
    private List<Turn> session(int s, long start, int stage) {
        int turnCount = RandomDraws.geometric(rng, turnsMean);
        int firstUser = user.sample(rng);
        int length = promptLength(system.length() + 1 + firstUser);
        int body = length - system.length() - firstUser;
        int group = -1;
        TokenText first = TokenText.EMPTY;
        if (docShare > 0 && rng.nextDouble() < docShare) {
            group = document(rng.nextDouble());
            TokenText doc = document(group);
            int shared = Math.min(doc.length(), body);
            first = shared == doc.length() ? doc : TokenText.ofWordIds(Arrays.copyOf(doc.tokens(), shared));
            body -= shared;
        }
        first = first.plus(TokenText.words(body, rng)).plus(TokenText.words(firstUser, rng));
        List<ChatTokens.Turn> history = new ArrayList<>();
        if (system.length() > 0) {
            history.add(new ChatTokens.Turn("system", system));
        }
        history.add(new ChatTokens.Turn("user", first));
        List<Turn> turns = new ArrayList<>(turnCount);
        long nominal = start;
        int answered = 0;
        for (int t = 0; t < turnCount; t++) {
            long gap = -1;
            if (t > 0) {
                gap = Math.round(Math.min(thinkMax, RandomDraws.lognormal(rng, thinkMu, thinkSigma)) * 1e9);
                nominal += Math.round(answered * answerNanosPerToken) + gap;
            }
            Prompt prompt = ChatTokens.prompt(history);
            if (t > 0 && prompt.tokens().length > maxPrompt) {
                break; // the context is full: the user starts over elsewhere
            }
            int maxTokens = output.sample(rng);
            answered = maxTokens;
            turns.add(new Turn(nominal, stage, new RequestContent(null, prompt, maxTokens, group, s, t, gap)));
            history.add(new ChatTokens.Turn("assistant", TokenText.words(maxTokens, rng)));
            history.add(new ChatTokens.Turn("user", TokenText.words(user.sample(rng), rng)));
        }
        return turns;
    }

    /** A lognormal prompt length, clipped to {@code [min, prompt_len_max]}. */
    private int promptLength(int min) {
        return promptLength(rng, min);
    }

    private int promptLength(RandomGenerator from, int min) {
        double x = RandomDraws.lognormal(from, mu, sigma);
        return (int) Math.round(Math.max(min, Math.min(maxPrompt, x)));
    }

    /** Document k, the same whenever and however often it is asked for. */
    private TokenText document(int k) {
        if (docs[k] == null) {
            RandomGenerator own = new SplittableRandom(docSeed ^ (0x9E3779B97F4A7C15L * (k + 1)));
            docs[k] = TokenText.words(promptLength(own, 1), own);
        }
        return docs[k];
    }

    /** Document k with probability (1/(k+1)^s) / Σ. */
    private int document(double uniform) {
        double u = uniform * docCumulative[docCumulative.length - 1];
        int i = Arrays.binarySearch(docCumulative, u);
        int k = i >= 0 ? i + 1 : -i - 1;
        return Math.min(k, docCumulative.length - 1);
    }
}
