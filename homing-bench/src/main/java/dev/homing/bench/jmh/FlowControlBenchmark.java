package dev.homing.bench.jmh;

import dev.homing.core.flowcontrol.BandSettings;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.flowcontrol.FlowController;
import dev.homing.core.flowcontrol.FlowListener;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.flowcontrol.FcfsOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.RoundRobinFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.StaticUsageLimitPolicy;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.protocol.openai.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What flow control adds to a request: admitted at enqueue when nothing waits and the pool has headroom (the cost every
 * request pays while the pool is not saturated), and, under saturation, one enqueue plus the dispatch cycle that
 * admits one request, with {@code waiting} requests spread over {@code flows} flows in three priority bands and
 * round-robin fairness (the policy that keeps per-band state).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class FlowControlBenchmark {

    private static final int[] PRIORITIES = {10, 0, -1};

    @Param({"1", "100"})
    public int flows;

    @Param({"1000", "10000"})
    public int waiting;

    private FlowController queued;
    private FlowController idle;
    private InferenceRequest[] requests;
    private int next;
    private boolean allow;

    private static final Waiter NOTHING = new Waiter() {
        @Override
        public void admitted() {
        }

        @Override
        public void refused(SchedulingException why) {
        }
    };

    @Setup
    public void setUp() throws RequestFormatException {
        BandSettings band = new BandSettings(BandSettings.DEFAULT_MAX_BYTES, 0, new FcfsOrderingPolicy("fcfs"),
                new RoundRobinFairnessPolicy("rr"));
        FlowControlSettings settings = new FlowControlSettings(0, 0, TimeUnit.SECONDS.toNanos(60), Map.of(), band,
                null, new StaticUsageLimitPolicy("static", 1.0), false, null, null);
        queued = new FlowController(settings, System::nanoTime, FlowListener.NONE);
        idle = new FlowController(settings, System::nanoTime, FlowListener.NONE);
        byte[] body = "{\"model\":\"m\",\"prompt\":\"hello\"}".getBytes(StandardCharsets.UTF_8);
        var fields = RequestParser.parse(ApiKind.COMPLETIONS, body);
        requests = new InferenceRequest[Math.max(waiting, 4096)];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new InferenceRequest("r" + i, fields,
                    Map.of("x-gateway-inference-fairness-id", "flow-" + (i % flows)))
                    .withPriority(PRIORITIES[i % PRIORITIES.length]);
        }
        for (int i = 0; i < waiting; i++) {
            queued.enqueue(requests[i], body.length, NOTHING, 1.0);
        }
    }

    /** Headroom and nothing waiting: the request goes at enqueue; its ticket ends with it. */
    @Benchmark
    public boolean admitAtOnce() {
        Ticket t = idle.enqueue(requests[next++ & 4095], 32, NOTHING, 0.0);
        t.end();
        return t.admittedAtOnce();
    }

    /** Saturated with {@code waiting} requests queued: one more joins, and one cycle admits one (the queue holds). */
    @Benchmark
    public int enqueueAndDispatchOne() {
        queued.enqueue(requests[next++ % requests.length], 32, NOTHING, 1.0);
        allow = true;
        return queued.dispatch(() -> {
            boolean go = allow;
            allow = false;
            return go ? 0.0 : 1.0;
        });
    }
}
