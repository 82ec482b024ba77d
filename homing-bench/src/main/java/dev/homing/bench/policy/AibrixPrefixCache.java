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
 * AIBrix's {@code prefix-cache} routing ({@code vllm-project/aibrix}), in the versions {@link AibrixSettings} names.
 * The one shipped ({@value Policies#AIBRIX}) is the code of {@code pkg/plugins/gateway/algorithms/prefix_cache.go} @
 * {@code 429c45e90fb4eb7f7963219f98aa63429bbdd6e2}, which reads {@code AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE},
 * {@code …_POD_RUNNING_REQUEST_IMBALANCE_ABS_COUNT} and {@code …_STANDARD_DEVIATION_FACTOR}, with the values its
 * gateway-plugin Deployment sets ({@code config/gateway/gateway-plugin/gateway-plugin.yaml} @
 * {@code fea20d123d276b5bbe845e16ca280236512d4e31}; the Helm chart's values list the same): the {@code character}
 * tokenizer (the request's bytes), {@code AIBRIX_PREFIX_CACHE_BLOCK_SIZE} 128 (read by
 * {@code pkg/utils/prefixcacheindexer/hash.go}, e.g. @ {@code 49e51f5c469fb5702077e1217fbee5fa76c4bcee}), ABS_COUNT
 * 16, deviation factor 2; the table keeps its code defaults, 200,000 blocks, a 20-minute TTL swept every second.
 *
 * <p>With the gateway's own running-request count per pod:
 * <ol>
 *   <li>load gate {@link AibrixSettings.Gate#ABS_COUNT}: when {@code max − min > 16} the request goes to a
 *       least-request pod (random among equals) and its blocks are recorded there, no prefix matched;</li>
 *   <li>match: walk the request's block hashes; each ready pod holding block i gets {@code (i+1)·100/blocks}
 *       percent, pods missing a block drop out, the walk stops when none holds it;</li>
 *   <li>the matched pods, shuffled, then ordered by percent descending and count ascending (stable); the first whose
 *       count is at most the mean plus {@code factor} sample standard deviations of all pods' counts wins;</li>
 *   <li>otherwise a least-request pod (at random among equals);</li>
 *   <li>the request's blocks are recorded for the chosen pod.</li>
 * </ol>
 * Chat text: the messages' contents joined by one space, roles dropped ({@code getChatCompletionsMessage},
 * {@code pkg/plugins/gateway/util.go} @ {@code cbbbf374b6362bd4e21e426297be9d7dca303af1}; current main's
 * {@code parseChatMessages} builds the same string; {@link #message}).
 *
 * <p>What current main changed ({@code prefix_cache.go} @ {@code 01de8a514d00c51b12132a3f2cd1f7d8349c8c9f}, modelled as
 * {@value Policies#AIBRIX_MAIN}): the gate became {@code max > 2·(mean + 1)} and {@code max − min ≥ 8}
 * ({@code …_LOAD_IMBALANCE_FACTOR}, {@code …_LOAD_IMBALANCE_MIN_GAP}; ABS_COUNT is no longer read) and, when it fires,
 * prefix matching is restricted to the pods at the minimum instead of being skipped. The code's fallback constants
 * (4-byte blocks, ABS_COUNT 8, factor 1) run as {@value Policies#AIBRIX_CODE_DEFAULTS}. Upstream chains each block's
 * hash on its parent's (main) or hashes the whole prefix up to the block (429c45e); both identify a block with its
 * prefix, which is all matching uses, so the lab hashes one way ({@link PrefixHashTable}).
 */
final class AibrixPrefixCache implements Policy {

    static final long TTL_NANOS = 20L * 60 * 1_000_000_000L;
    static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;

    private final Ticker ticker;
    private final RandomGenerator random;
    private final PrefixHashTable table;
    private final int[] running;
    private final AibrixSettings settings;
    private long nextSweep = SWEEP_INTERVAL_NANOS;

    AibrixPrefixCache(int pods, Ticker ticker, RandomGenerator random, AibrixSettings settings) {
        this(pods, ticker, random, settings, new PrefixHashTable(settings.blockSize(), AibrixSettings.BLOCK_NUMBER,
                TTL_NANOS, random.nextLong()));
    }

    AibrixPrefixCache(int pods, Ticker ticker, RandomGenerator random, AibrixSettings settings,
                      PrefixHashTable table) {
        this.ticker = ticker;
        this.random = random;
        this.table = table;
        this.running = new int[pods];
        this.settings = settings;
    }

    @Override
    public String name() {
        return settings.name();
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
        if (settings.gate() == AibrixSettings.Gate.ABS_COUNT) {
            if (max - min > settings.gateCount()) {
                return leastRequest(running);
            }
        } else if (imbalancedByFactorAndGap(running, min, max)) {
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

    /** Main's gate: imbalanced unless {@code max ≤ factor·(mean + 1)} or {@code max − min < gap}. */
    private boolean imbalancedByFactorAndGap(int[] running, int min, int max) {
        double mean = 0;
        for (int c : running) {
            mean += c;
        }
        mean /= running.length;
        return !(max <= settings.gateFactor() * (mean + 1) || max - min < settings.gateCount());
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
            if (running[pod] <= mean + settings.deviationFactor() * std) {
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

    /**
     * What the gateway hashes: a completion's prompt, or a chat's message contents each after one space but the
     * first, an empty content still taking its separator (as {@code getChatCompletionsMessage} writes them).
     */
    static byte[] message(Prompt prompt) {
        if (!prompt.isChat()) {
            return prompt.text().getBytes(StandardCharsets.UTF_8);
        }
        StringBuilder b = new StringBuilder();
        List<Prompt.Message> messages = prompt.messages();
        for (int i = 0; i < messages.size(); i++) {
            if (i > 0) {
                b.append(' ');
            }
            String content = messages.get(i).content();
            b.append(content == null ? "" : content);
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    int running(int pod) {
        return running[pod];
    }
}
