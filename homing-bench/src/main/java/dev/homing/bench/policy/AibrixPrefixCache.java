package dev.homing.bench.policy;

import dev.homing.bench.workload.Prompt;
import dev.homing.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * AIBrix's {@code prefix-cache} routing ({@code vllm-project/aibrix} {@code pkg/plugins/gateway/algorithms/
 * prefix_cache.go} as of {@code e3e10f9}) with its code defaults: the {@code character} tokenizer (the request's
 * bytes), blocks of 4 bytes, a table of 200,000 blocks with a 20-minute TTL swept every second
 * ({@code prefixcacheindexer/hash.go}), {@code AIBRIX_PREFIX_CACHE_POD_RUNNING_REQUEST_IMBALANCE_ABS_COUNT} 8,
 * {@code AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR} 1.
 *
 * <p>With the gateway's own running-request count per pod:
 * <ol>
 *   <li>imbalance gate: when {@code max − min > 8}, prefix matching only considers the pods at the minimum;</li>
 *   <li>match: walk the request's block hashes; each considered pod holding block i gets
 *       {@code (i+1)·100/blocks} percent, pods missing a block drop out, the walk stops when none holds it;</li>
 *   <li>the matched pods, shuffled, then ordered by percent descending and count ascending (stable); the first whose
 *       count is at most the mean plus one sample standard deviation of all pods' counts wins;</li>
 *   <li>otherwise the least-loaded pod (at random among equals);</li>
 *   <li>the request's blocks are recorded for the chosen pod.</li>
 * </ol>
 * (Newer AIBrix replaced the gate with {@code max > 2·(mean of others + 1)} and a minimum gap of 8; the reference
 * documents the version above.)
 */
final class AibrixPrefixCache implements Policy {

    static final int BLOCK_SIZE = 4;
    static final int BLOCK_NUMBER = 200_000;
    static final long TTL_NANOS = 20L * 60 * 1_000_000_000L;
    static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;
    static final int IMBALANCE_ABS_COUNT = 8;
    static final int STANDARD_DEVIATION_FACTOR = 1;

    private final Ticker ticker;
    private final RandomGenerator random;
    private final PrefixHashTable table;
    private final int[] running;
    private final int imbalanceAbsCount;
    private final double deviationFactor;
    private long nextSweep = SWEEP_INTERVAL_NANOS;

    AibrixPrefixCache(int pods, Ticker ticker, RandomGenerator random) {
        this(pods, ticker, random, new PrefixHashTable(BLOCK_SIZE, BLOCK_NUMBER, TTL_NANOS, random.nextLong()),
                IMBALANCE_ABS_COUNT, STANDARD_DEVIATION_FACTOR);
    }

    AibrixPrefixCache(int pods, Ticker ticker, RandomGenerator random, PrefixHashTable table, int imbalanceAbsCount,
                      double deviationFactor) {
        this.ticker = ticker;
        this.random = random;
        this.table = table;
        this.running = new int[pods];
        this.imbalanceAbsCount = imbalanceAbsCount;
        this.deviationFactor = deviationFactor;
    }

    @Override
    public String name() {
        return Policies.AIBRIX;
    }

    @Override
    public Placement place(PolicyRequest request) {
        long now = ticker.nanos();
        if (now >= nextSweep) {
            table.expire(now);
            nextSweep = now + SWEEP_INTERVAL_NANOS;
        }
        long[] hashes = table.hashes(message(request.prompt()));
        int pod = choose(hashes, running);
        table.add(hashes, pod, now);
        return new CountedPlacement(running, pod);
    }

    /** The pod for a request's block hashes given each pod's running requests; records nothing. */
    int choose(long[] hashes, int[] running) {
        int n = running.length;
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int c : running) {
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        long considered = n == 64 ? -1L : (1L << n) - 1;
        if (max - min > imbalanceAbsCount) {
            considered = 0;
            for (int i = 0; i < n; i++) {
                if (running[i] == min) {
                    considered |= 1L << i;
                }
            }
        }
        int[] percent = new int[n];
        long matched = 0;
        for (int i = 0; i < hashes.length && considered != 0; i++) {
            long holders = table.podsOf(hashes[i]) & considered;
            if (holders == 0) {
                break;
            }
            int p = (i + 1) * 100 / hashes.length;
            for (long m = holders; m != 0; m &= m - 1) {
                percent[Long.numberOfTrailingZeros(m)] = p;
            }
            considered = holders;
            matched |= holders;
        }
        if (matched != 0) {
            int target = fromMatched(matched, percent, running);
            if (target >= 0) {
                return target;
            }
        }
        return leastRequest(running);
    }

    /** A pod with 0 % (a long prompt's first block) still counts as matched, as an entry of AIBrix's map. */
    private int fromMatched(long matchedPods, int[] percent, int[] running) {
        int n = running.length;
        double mean = 0;
        for (int c : running) {
            mean += c;
        }
        mean /= n;
        double squares = 0;
        for (int c : running) {
            squares += (c - mean) * (c - mean);
        }
        double std = n <= 1 ? 0 : Math.sqrt(squares / (n - 1));
        List<Integer> matched = new ArrayList<>();
        for (long m = matchedPods; m != 0; m &= m - 1) {
            matched.add(Long.numberOfTrailingZeros(m));
        }
        for (int i = matched.size() - 1; i > 0; i--) { // rand.Shuffle
            int j = random.nextInt(i + 1);
            Integer t = matched.get(i);
            matched.set(i, matched.get(j));
            matched.set(j, t);
        }
        matched.sort(Comparator.<Integer>comparingInt(i -> -percent[i]).thenComparingInt(i -> running[i]));
        for (int pod : matched) {
            if (running[pod] <= mean + deviationFactor * std) {
                return pod;
            }
        }
        return -1;
    }

    private int leastRequest(int[] running) {
        int min = Arrays.stream(running).min().orElse(0);
        int[] at = new int[running.length];
        int k = 0;
        for (int i = 0; i < running.length; i++) {
            if (running[i] == min) {
                at[k++] = i;
            }
        }
        return at[random.nextInt(k)];
    }

    /** What the gateway hashes: a completion's prompt, or the chat messages as Go's json.Marshal writes them. */
    static byte[] message(Prompt prompt) {
        if (!prompt.isChat()) {
            return prompt.text().getBytes(StandardCharsets.UTF_8);
        }
        StringBuilder b = new StringBuilder("[");
        for (Prompt.Message m : prompt.messages()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append("{\"content\":");
            goQuote(b, m.content() == null ? "" : m.content());
            b.append(",\"role\":");
            goQuote(b, m.role());
            b.append('}');
        }
        return b.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void goQuote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<', '>', '&' -> b.append(String.format("\\u%04x", (int) c)); // Go escapes HTML characters
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    int running(int pod) {
        return running[pod];
    }
}
