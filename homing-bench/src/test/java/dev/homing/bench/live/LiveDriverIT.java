package dev.homing.bench.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.result.RequestRecord;
import dev.homing.bench.workload.HitRateBound;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadRequest;
import dev.homing.bench.workload.Workloads;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.FailureType;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The live driver against real simulated pods (and a scripted server) on 127.0.0.1. */
@Timeout(120)
class LiveDriverIT {

    private static final long MS = 1_000_000L;

    private final List<AutoCloseable> servers = new ArrayList<>();

    private static Map<String, String> params(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable s : servers) {
            s.close();
        }
    }

    /** The CPU preset (blocks of 16) with cheap prefill and decode steps of {@code decodeMillis}. */
    private SimPod pod(long decodeMillis, SimPodConfig.Builder builder) {
        EngineConfig engine = Preset.CPU_QWEN2_5_0_5B.engine()
                .withCost(CostModel.simple(0, 20_000, decodeMillis * MS, 0));
        SimPod pod = SimPod.start(builder.engine(engine).podName("pod-a").seed(3).build());
        servers.add(pod);
        return pod;
    }

    private SimPod pod(long decodeMillis) {
        return pod(decodeMillis, SimPodConfig.builder());
    }

    /** Remembers the last counts it heard. */
    private static final class Counts implements ProgressListener {
        volatile String label;
        volatile int total;
        volatile int[] finished;
        final AtomicInteger updates = new AtomicInteger();

        @Override
        public void started(String label, int requests) {
            this.label = label;
            this.total = requests;
        }

        @Override
        public void progress(int sent, int done, int failed) {
            updates.incrementAndGet();
        }

        @Override
        public void finished(int sent, int done, int failed) {
            finished = new int[] {sent, done, failed};
        }
    }

    private static void assertServedAsAsked(PolicyRun run, Workload w) {
        assertThat(run.records()).extracting(RequestRecord::id)
                .containsExactlyElementsOf(w.requests().stream().map(WorkloadRequest::id).toList());
        for (int i = 0; i < w.requests().size(); i++) {
            WorkloadRequest asked = w.requests().get(i);
            RequestRecord r = run.records().get(i);
            assertThat(r.status()).as(r.id()).isEqualTo(200);
            assertThat(r.pod()).isEqualTo("pod-a");
            // the pod's tokenizer counts exactly the tokens the workload says it built
            assertThat(r.promptTokens()).as(r.id()).isEqualTo(asked.prompt().tokens().length);
            assertThat(r.outputTokens()).isEqualTo(asked.maxTokens());
            assertThat(r.ttftNanos()).isPositive().isLessThanOrEqualTo(r.e2eNanos());
            assertThat(r.cachedTokens()).isBetween(0, r.promptTokens() - 1);
            assertThat(r.arrivalNanos()).isNotNegative();
            assertThat(r.stage()).isEqualTo(asked.stage());
        }
    }

    private static double measuredHitRate(PolicyRun run) {
        long cached = run.records().stream().mapToLong(RequestRecord::cachedTokens).sum();
        long prompt = run.records().stream().mapToLong(RequestRecord::promptTokens).sum();
        return (double) cached / prompt;
    }

    @Test
    void oneRequestAtATimeOnOnePodReachesExactlyTheBound() {
        SimPod pod = pod(2);
        // two passes: the second repeats every prompt whole
        Workload w = Workloads.create("shared-prefix", params("num_groups", "3", "num_prompts_per_group", "3",
                "system_prompt_len", "100", "question_len", "20", "output_len", "6", "concurrency", "1",
                "num_requests", "18"), 5);
        Counts progress = new Counts();
        PolicyRun run = new LiveDriver().run(URI.create(pod.baseUrl()), w, "direct", progress);
        assertThat(run.policy()).isEqualTo("direct");
        assertThat(run.workload()).isEqualTo("shared-prefix");
        assertThat(run.load()).isEmpty();
        assertThat(run.stageQps()).isEmpty();
        assertThat(run.wallNanos()).isPositive();
        assertServedAsAsked(run, w);
        // with nothing evicted and nothing in flight, the pod's cache is the infinite cache of the bound
        assertThat(measuredHitRate(run)).isCloseTo(HitRateBound.of(w, 16), within(1e-12));
        assertThat(HitRateBound.of(w, 16)).isGreaterThan(0.5);
        assertThat(progress.label).isEqualTo("direct");
        assertThat(progress.total).isEqualTo(18);
        assertThat(progress.finished).containsExactly(18, 18, 0);
        assertThat(progress.updates.get()).isEqualTo(36);
        // closed loop with one slot: each request is sent after the previous one ended
        for (int i = 1; i < 18; i++) {
            RequestRecord before = run.records().get(i - 1);
            assertThat(run.records().get(i).arrivalNanos()).isGreaterThanOrEqualTo(before.arrivalNanos()
                    + before.e2eNanos());
        }
    }

    @Test
    void chatTurnsReachThePodAsTheWorkloadBuiltThem() {
        SimPod pod = pod(2);
        Workload w = Workloads.create("multi-turn", params("num_groups", "2", "num_prompts_per_group", "2",
                "num_turns", "3", "system_prompt_len", "60", "question_len", "10", "output_len", "5",
                "concurrency", "1"), 8);
        PolicyRun run = new LiveDriver().run(URI.create(pod.baseUrl() + "/v1"), w, "direct", null);
        assertThat(run.records()).hasSize(12);
        assertServedAsAsked(run, w);
        assertThat(measuredHitRate(run)).isCloseTo(HitRateBound.of(w, 16), within(1e-12));
    }

    @Test
    void aTurnWaitsForThePreviousTurnsAnswerWhateverItsArrivalSays() {
        SimPod pod = pod(5);
        // two conversations, arrivals far faster than answers: most turns must wait
        Workload w = Workloads.create("multi-turn", params("num_groups", "1", "num_prompts_per_group", "2",
                "num_turns", "20", "system_prompt_len", "20", "question_len", "4", "output_len", "4",
                "qps", "200", "num_requests", "16"), 4);
        PolicyRun run = new LiveDriver().run(URI.create(pod.baseUrl()), w, "direct", null);
        assertServedAsAsked(run, w);
        Map<Integer, RequestRecord> previous = new HashMap<>();
        for (int i = 0; i < w.requests().size(); i++) {
            WorkloadRequest asked = w.requests().get(i);
            RequestRecord r = run.records().get(i);
            assertThat(r.arrivalNanos()).as("never before its slot").isGreaterThanOrEqualTo(asked.arrivalNanos());
            RequestRecord before = previous.put(asked.conversation(), r);
            if (asked.turn() > 0) {
                assertThat(r.arrivalNanos()).as("turn %d after turn %d ended", asked.turn(), asked.turn() - 1)
                        .isGreaterThanOrEqualTo(before.arrivalNanos() + before.e2eNanos());
            }
        }
    }

    @Test
    void aSessionsTurnGoesOnlyAfterThePreviousAnswerPlusItsRecordedGap(@TempDir Path dir) throws IOException {
        SimPod pod = pod(5);
        // as homing serve --record writes it: a's turn 1 recorded 1,000 ms after turn 0, b's turn 1 with AIPerf's
        // delay of 80 ms (its timestamps would say 10 ms); b starts while a's first answer is on its way
        Path f = dir.resolve("recorded.jsonl");
        Files.writeString(f, """
                {"timestamp": 0, "input_length": 40, "output_length": 20, "hash_ids": [0], "session_id": "a"}
                {"timestamp": 50, "input_length": 30, "output_length": 20, "hash_ids": [1], "session_id": "b"}
                {"timestamp": 60, "input_length": 50, "output_length": 4, "hash_ids": [1], "session_id": "b", \
                "delay": 80}
                {"timestamp": 70, "input_length": 20, "output_length": 4, "hash_ids": [2]}
                {"timestamp": 1000, "input_length": 60, "output_length": 4, "hash_ids": [0], "session_id": "a"}
                """);
        Workload w = Workloads.create("trace", params("file", f.toString(), "hash_block_size", "16"), 1);
        PolicyRun run = new LiveDriver().run(URI.create(pod.baseUrl()), w, "direct", null);
        assertServedAsAsked(run, w);
        List<RequestRecord> r = run.records();
        RequestRecord a0 = r.get(0);
        RequestRecord b0 = r.get(1);
        RequestRecord b1 = r.get(2);
        RequestRecord x = r.get(3);
        RequestRecord a1 = r.get(4);
        assertThat(b1.arrivalNanos()).as("b1: b0's answer + 80 ms").isGreaterThanOrEqualTo(end(b0) + 80 * MS);
        assertThat(a1.arrivalNanos()).as("a1: a0's answer + 1,000 ms").isGreaterThanOrEqualTo(end(a0) + 1_000 * MS);
        assertThat(b0.arrivalNanos()).as("sessions interleave").isLessThan(a1.arrivalNanos());
        assertThat(b0.arrivalNanos()).isGreaterThanOrEqualTo(50 * MS);
        assertThat(x.arrivalNanos()).as("no session: its timestamp").isGreaterThanOrEqualTo(70 * MS)
                .isLessThan(a1.arrivalNanos());
    }

    private static long end(RequestRecord r) {
        return r.arrivalNanos() + r.e2eNanos();
    }

    @Test
    void errorsAreCountedByStatusAndNeverStopTheRun() {
        SimPod pod = pod(2, SimPodConfig.builder().failureInjectionRate(100)
                .failureTypes(List.of(FailureType.RATE_LIMIT)));
        Workload w = Workloads.create("cold-burst", params("num_requests", "5"), 1);
        Counts progress = new Counts();
        PolicyRun run = new LiveDriver().run(URI.create(pod.baseUrl()), w, "direct", progress);
        assertThat(run.records()).hasSize(5).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(429);
            assertThat(r.ttftNanos()).isEqualTo(-1);
            assertThat(r.e2eNanos()).isNotNegative();
            assertThat(r.pod()).isEqualTo("pod-a");
        });
        assertThat(progress.finished).containsExactly(5, 5, 5);
    }

    @Test
    void aRequestThatOutlivesItsTimeoutIsCutOff() {
        SimPod pod = pod(1_000); // a second per token, 20 tokens
        Workload w = Workloads.create("cold-burst", params("num_requests", "3", "ignore_eos", "true"), 1);
        PolicyRun run = new LiveDriver(Duration.ofMillis(300), Duration.ofMinutes(1))
                .run(URI.create(pod.baseUrl()), w, "direct", null);
        assertThat(run.records()).hasSize(3).allSatisfy(r -> {
            assertThat(r.status()).isZero();
            assertThat(r.e2eNanos()).isEqualTo(-1);
        });
    }

    @Test
    void theDeadlineCutsOffWhatIsInFlightAndSendsNothingMore() {
        SimPod pod = pod(1_000);
        Workload w = Workloads.create("cold-burst", params("qps", "2", "duration", "60", "ignore_eos", "true"), 1);
        Counts progress = new Counts();
        PolicyRun run = new LiveDriver(Duration.ofMinutes(5), Duration.ofSeconds(1))
                .run(URI.create(pod.baseUrl()), w, "direct", progress);
        assertThat(w.requests().size()).isGreaterThan(60);
        assertThat(run.records().size()).isLessThan(w.requests().size());
        assertThat(run.records()).allSatisfy(r -> assertThat(r.status()).isZero());
        assertThat(progress.finished[0]).isEqualTo(run.records().size());
    }

    @Test
    void anUnreachableServerFailsEveryRequestWithoutThrowing() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Workload w = Workloads.create("cold-burst", params("num_requests", "4", "concurrency", "2"), 1);
        PolicyRun run = new LiveDriver().run(URI.create("http://127.0.0.1:" + port), w, "nowhere", null);
        assertThat(run.records()).hasSize(4).allSatisfy(r -> {
            assertThat(r.status()).isZero();
            assertThat(r.pod()).isNull();
            assertThat(r.cachedTokens()).isEqualTo(-1);
        });
    }

    /** A router that names its pods: {@code x-homing-pod} wins; cached tokens absent mean 0 once any were reported. */
    @Test
    void podHeadersAndCachedTokensAsARouterReportsThem() throws IOException {
        AtomicInteger n = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int i = n.getAndIncrement();
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.getResponseHeaders().add("x-homing-pod", "pod-" + (i % 2));
            exchange.getResponseHeaders().add("x-inference-pod", "sim-xyz");
            exchange.sendResponseHeaders(200, 0);
            String usage = i % 2 == 0
                    ? "{\"prompt_tokens\":30,\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":16}}"
                    : "{\"prompt_tokens\":30,\"completion_tokens\":2}";
            try (OutputStream out = exchange.getResponseBody()) {
                for (String event : List.of("{\"choices\":[{\"index\":0,\"text\":\" a\"}]}",
                        "{\"choices\":[{\"index\":0,\"text\":\" b\",\"finish_reason\":\"length\"}]}",
                        "{\"choices\":[],\"usage\":" + usage + "}")) {
                    out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            }
        });
        server.start();
        servers.add(() -> server.stop(0));
        Workload w = Workloads.create("cold-burst", params("num_requests", "4", "concurrency", "1"), 1);
        PolicyRun run = new LiveDriver().run(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), w,
                "homing", null);
        assertThat(run.records()).extracting(RequestRecord::pod).containsExactly("pod-0", "pod-1", "pod-0", "pod-1");
        assertThat(run.records()).extracting(RequestRecord::cachedTokens).containsExactly(16, 0, 16, 0);
        assertThat(run.records()).extracting(RequestRecord::outputTokens).containsOnly(2);
        assertThat(run.records()).extracting(RequestRecord::promptTokens).containsOnly(30);
    }
}
