package dev.homing.bench.jmh;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.precise.BlockKeys;
import dev.homing.core.precise.InMemoryPreciseIndex;
import dev.homing.core.precise.PreciseIndex;
import dev.homing.protocol.kvevents.BlockRemoved;
import dev.homing.protocol.kvevents.BlockStored;
import dev.homing.protocol.kvevents.EventBlockHash;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The precise index's two hot paths. {@code ingest}: applying KV-cache events as a pod sends them during decoding —
 * one {@code BlockStored} per newly full block, chained to its parent, and one {@code BlockRemoved} per evicted block,
 * so the index stays at its steady size; one thread, measured in block events per second. {@code lookup}: matching an
 * 8k-token prompt (512 blocks of 16) against pods of which one holds all of it and others part.
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class PreciseIndexBenchmark {

    static final int BLOCK = 16;
    static final int EVENTS_PER_INVOCATION = 1024;

    @Param({"64"})
    public int pods;

    private PreciseIndex index;
    private List<List<KvCacheEvent>> batches;
    private String[] podOf;
    private int nextBatch;
    private long[] promptKeys;
    private List<EndpointState> candidates;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        index = new InMemoryPreciseIndex(4_000_000, BLOCK, 42, InMemoryPreciseIndex.DEFAULT_TIER_WEIGHTS);
        EndpointPool pool = new EndpointPool();
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            endpoints.add(new Endpoint("pod-" + i, "10.0.0." + i, 8000));
        }
        pool.setEndpoints(endpoints);
        candidates = pool.snapshot().endpoints();

        // The measured prompt: 8k tokens; pod-0 holds all 512 blocks, every other pod its first quarter.
        int[] prompt = new int[8192];
        for (int i = 0; i < prompt.length; i++) {
            prompt[i] = random.nextInt(150_000);
        }
        for (int p = 0; p < pods; p++) {
            int blocks = p == 0 ? 512 : 128;
            index.apply("pod-" + p, List.of(stored(prompt, 0, blocks, 1_000_000L * (p + 1), null)));
        }
        promptKeys = BlockKeys.of(index.root("m", null), prompt, BLOCK, Integer.MAX_VALUE);

        // Decode-time traffic: per pod, sequences growing block by block, each new block evicting an old one.
        batches = new ArrayList<>();
        podOf = new String[EVENTS_PER_INVOCATION * 16];
        for (int b = 0; b < 16; b++) {
            List<KvCacheEvent> events = new ArrayList<>();
            for (int e = 0; e < EVENTS_PER_INVOCATION / 2; e++) {
                int pod = random.nextInt(pods);
                int[] tokens = new int[BLOCK];
                for (int t = 0; t < BLOCK; t++) {
                    tokens[t] = random.nextInt(150_000);
                }
                long hash = random.nextLong() & Long.MAX_VALUE;
                events.add(stored(tokens, 0, 1, hash, null));
                events.add(new BlockRemoved(List.of(EventBlockHash.ofUint64(hash)), "GPU", null));
            }
            batches.add(events);
        }
    }

    private static BlockStored stored(int[] tokens, int from, int to, long engineBase, EventBlockHash parent) {
        List<EventBlockHash> hashes = new ArrayList<>();
        for (int i = from; i < to; i++) {
            hashes.add(EventBlockHash.ofUint64(engineBase + i));
        }
        int[] slice = java.util.Arrays.copyOfRange(tokens, from * BLOCK, to * BLOCK);
        return new BlockStored(hashes, parent, slice, BLOCK, null, "GPU", null, null, 0, "full_attention", null);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(EVENTS_PER_INVOCATION)
    public int ingest() {
        List<KvCacheEvent> events = batches.get(nextBatch++ & 15);
        return index.apply("pod-" + (nextBatch % pods), events);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public PreciseIndex.Match lookup() {
        return index.match(promptKeys, candidates, candidates.size(), 0);
    }
}
