package dev.homing.bench.jmh;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.director.Director;
import dev.homing.core.director.Dispatch;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.protocol.openai.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One scheduling decision with Homing's default profile, end to end as the proxy makes it: parse the body's routing
 * fields, hash the prompt, look it up in the approximate index, score every pod, pick, credit the load, record the
 * blocks, and release at the end. Pods have varied scraped metrics; the index holds earlier prompts that share
 * system prompts with the measured ones, so lookups walk real chains.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class SchedulingBenchmark {

    static final String MODEL = "Qwen/Qwen3-32B";

    @Param({"16", "64", "256"})
    public int pods;

    @Param({"1024", "32768", "225280"})
    public int promptBytes;

    private Director director;
    private byte[][] bodies;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws RequestFormatException {
        SplittableRandom random = new SplittableRandom(42);
        EndpointPool pool = new EndpointPool();
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            endpoints.add(new Endpoint("pod-" + i, "10.0." + (i / 250) + "." + (i % 250), 8000));
        }
        pool.setEndpoints(endpoints);
        for (Endpoint e : endpoints) {
            EndpointMetrics m = new EndpointMetrics(random.nextInt(4), random.nextInt(32), random.nextDouble() * 0.9,
                    16, 19_208, Set.of(), Set.of(), -1, 0);
            pool.updateMetrics(e.name(), m, pool.load(e.name()).scrapeStarted());
        }
        director = new Director(pool, DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(System::nanoTime, random, pool)).policy(), System::nanoTime);
        // 32 system prompts; each measured prompt is one of them plus its own question (a quarter of its length).
        int groups = 32;
        int systemBytes = promptBytes * 3 / 4;
        String[] systems = new String[groups];
        for (int g = 0; g < groups; g++) {
            systems[g] = text(random, systemBytes);
        }
        bodies = new byte[256][];
        for (int i = 0; i < bodies.length; i++) {
            String prompt = systems[i % groups] + text(random, promptBytes - systemBytes);
            bodies[i] = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":256,\"stream\":true}")
                    .getBytes(StandardCharsets.UTF_8);
        }
        for (byte[] body : bodies) { // warm the index: every system prompt already lives somewhere
            decide(body);
        }
    }

    private static String text(SplittableRandom random, int bytes) {
        StringBuilder b = new StringBuilder(bytes + 16);
        while (b.length() < bytes) {
            b.append("token").append(random.nextInt(50_000)).append(' ');
        }
        b.setLength(bytes);
        return b.toString();
    }

    private void decide(byte[] body) throws RequestFormatException {
        try {
            InferenceRequest r = new InferenceRequest("bench", RequestParser.parse(ApiKind.COMPLETIONS, body), Map.of());
            try (Dispatch d = director.dispatch(r)) {
                d.target();
            }
        } catch (dev.homing.core.framework.scheduling.SchedulingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Benchmark
    public void decision() throws RequestFormatException {
        decide(bodies[next++ & (bodies.length - 1)]);
    }
}
