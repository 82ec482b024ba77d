package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugins.prefix.approx.ApproxPrefixCacheProducer;
import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.MockApiServer;
import dev.homing.router.fixtures.PodTokenizer;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.router.precise.events.PublisherAddress;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.Preset;
import dev.homing.sim.http.SimPod;
import dev.homing.sim.http.SimPodConfig;
import dev.homing.sim.kvevents.KvEventsConfig;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery against fabric8's Kubernetes mock server in CRUD mode (real HTTP on 127.0.0.1, lists and watches as an
 * API server serves them), with simulated vLLM pods behind the pods' addresses: each pod object's IP is a loopback
 * address (127.0.0.2, 127.0.0.3) where a simulated pod listens on the pool's one target port. Every change is followed
 * within a second (the informers watch; nothing polls), and a pod that leaves takes its state with it.
 */
class KubernetesDiscoveryIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final Duration FOLLOWS = Duration.ofSeconds(1);
    private static final Duration START = Duration.ofSeconds(10);
    private static final Map<String, String> DECODE = Map.of("app", "vllm", "llm-d.ai/role", "decode");
    private static final Map<String, String> PREFILL = Map.of("app", "vllm", "llm-d.ai/role", "prefill");

    @TempDir
    Path dir;

    @Test
    void theEndpointsFollowPodsAndTheInferencePoolAndALeavingPodTakesItsPrefixEntriesAndLoad() throws Exception {
        int port = freePortOnBoth();
        try (MockApiServer api = MockApiServer.start(dir); SimPod a = pod("a", "127.0.0.2", port, false);
             SimPod b = pod("b", "127.0.0.3", port, false); HttpJson http = new HttpJson();
             RouterServer router = RouterServer.start(options(api, KubernetesPool.inferencePool(
                     MockApiServer.NAMESPACE, "qwen", null, Map.of()), o -> { }))) {
            ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", router.healthPort()).usePlaintext().build();
            try {
                HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(ch);
                // no InferencePool yet: the pool cannot be synced, so neither the gRPC health nor /readyz is ready
                assertThat(status(health)).isEqualTo(ServingStatus.NOT_SERVING);
                HttpResponse<String> notSynced = http.get(admin(router, "/readyz"));
                assertThat(notSynced.statusCode()).isEqualTo(503);
                assertThat(notSynced.body()).isEqualTo("not ready: the pool has not synced yet");
                assertThat(router.discovery().synced()).isFalse();

                api.create(MockApiServer.inferencePool("qwen", Map.of("app", "vllm"), List.of(port)));
                await().atMost(FOLLOWS).until(() -> router.discovery().synced());
                await().atMost(FOLLOWS).until(() -> status(health) == ServingStatus.SERVING);
                assertThat(names(router)).isEmpty();

                // a pod that is not Ready is no endpoint; one that is, is
                api.create(MockApiServer.pod("pod-a", "127.0.0.2", false, DECODE, Map.of()));
                api.create(MockApiServer.pod("pod-b", "127.0.0.3", true, PREFILL, Map.of()));
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-b")));
                setReady(api, "pod-a", true);
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a", "pod-b")));
                EndpointState podA = endpoint(router, "pod-a");
                assertThat(podA.endpoint().host()).isEqualTo("127.0.0.2");
                assertThat(podA.endpoint().port()).isEqualTo(port);
                assertThat(podA.endpoint().label("llm-d.ai/role")).isEqualTo("decode"); // what the P/D filters read
                assertThat(endpoint(router, "pod-b").endpoint().label("llm-d.ai/role")).isEqualTo("prefill");
                await().atMost(START).until(() -> http.get(admin(router, "/readyz")).statusCode() == 200);

                // the pool's edits: another target port is another endpoint per pod; a selector narrows the pods
                editPool(api, Map.of("app", "vllm"), List.of(port, port + 1));
                await().atMost(FOLLOWS).until(() -> names(router).equals(
                        List.of("pod-a", "pod-a-rank-1", "pod-b", "pod-b-rank-1")));
                assertThat(endpoint(router, "pod-b-rank-1").endpoint().port()).isEqualTo(port + 1);
                editPool(api, DECODE, List.of(port));
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a")));
                editPool(api, Map.of("app", "vllm"), List.of(port));
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a", "pod-b")));
                await().atMost(START).until(() -> router.pool().snapshot().endpoints().stream()
                        .allMatch(e -> e.metrics().known() && router.catalog().status(e.name()).modelsKnown()));

                // a request served: its pod has prefix entries; one still streaming: its pod has load
                String served = complete(http, router, 2);
                ApproxPrefixCacheProducer prefix = router.director().policy().producers().stream()
                        .filter(ApproxPrefixCacheProducer.class::isInstance).map(ApproxPrefixCacheProducer.class::cast)
                        .findFirst().orElseThrow();
                assertThat(prefix.index().size(served)).isPositive();
                String other = served.equals("pod-a") ? "pod-b" : "pod-a";
                CompletableFuture<HttpResponse<InputStream>> inFlight = CompletableFuture.supplyAsync(() ->
                        http.postStreaming(url(router, "/v1/completions"), "{\"model\":\"" + MODEL + "\",\"prompt\":"
                                + "\"" + ("a long story " + served + " ").repeat(20) // blocks to record
                                + "\",\"max_tokens\":400,\"stream\":true,"
                                + "\"ignore_eos\":true}"));
                await().atMost(START).until(() -> endpoint(router, served) != null
                        && endpoint(router, served).inFlightRequests() + endpoint(router, other).inFlightRequests()
                        == 1);
                String loaded = endpoint(router, served).inFlightRequests() == 1 ? served : other;

                // it loses readiness: it leaves, with its prefix entries and its load
                // the pick recorded the streaming prompt's blocks for it: entries to lose
                await().atMost(FOLLOWS).until(() -> prefix.index().size(loaded) > 0);
                setReady(api, loaded, false);
                await().atMost(FOLLOWS).until(() -> !names(router).contains(loaded));
                // the new set is published before the removal listeners run: await, not assert, the entries' end
                await().atMost(FOLLOWS).until(() -> prefix.index().size(loaded) == 0);
                setReady(api, loaded, true);
                await().atMost(FOLLOWS).until(() -> names(router).contains(loaded));
                assertThat(endpoint(router, loaded).inFlightRequests()).isZero(); // the old request is not its
                assertThat(endpoint(router, loaded).pendingPrefillTokens()).isZero();
                try (InputStream body = inFlight.get(10, TimeUnit.SECONDS).body()) {
                    body.readAllBytes(); // it ends, and releases what it held on the member that left: not this one
                }
                await().atMost(START).until(() -> endpoint(router, other).inFlightRequests() == 0);
                assertThat(endpoint(router, loaded).inFlightRequests()).isZero();

                // a deletion timestamp (a finalizer holds the object) makes it leave; deleting it outright as well
                api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName("pod-a")
                        .edit(p -> {
                            p.getMetadata().setFinalizers(List.of("homing.dev/test"));
                            return p;
                        });
                api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName("pod-a").delete();
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-b")));
                assertThat(api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName("pod-a").get()
                        .getMetadata().getDeletionTimestamp()).as("the mock server kept the pod, being deleted")
                        .isNotNull();
                await().atMost(FOLLOWS).until(() -> prefix.index().size("pod-a") == 0);

                // the pool deleted while pod-b is still Ready: nothing to route to, and not ready
                assertThat(endpoint(router, "pod-b")).isNotNull();
                api.client().genericKubernetesResources(MockApiServer.INFERENCE_POOL)
                        .inNamespace(MockApiServer.NAMESPACE).withName("qwen").delete();
                await().atMost(FOLLOWS).until(() -> names(router).isEmpty());
                await().atMost(FOLLOWS).until(() -> status(health) == ServingStatus.NOT_SERVING);
                assertThat(http.get(admin(router, "/readyz")).statusCode()).isEqualTo(503);
                assertThat(router.discovery().synced()).isFalse();
                await().atMost(FOLLOWS).until(() -> prefix.index().size("pod-b") == 0);
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void standaloneSelectorModeFollowsThePodsItSelectsAndALeavingPodsKvEventSubscriptionCloses() throws Exception {
        int port = freePortOnBoth();
        try (MockApiServer api = MockApiServer.start(dir); SimPod a = pod("a", "127.0.0.2", port, true);
             SimPod b = pod("b", "127.0.0.3", port, true);
             RouterServer router = RouterServer.start(options(api, KubernetesPool.standalone(null,
                     "app=vllm,llm-d.ai/role in (decode)", String.valueOf(port),
                     Map.of("NAMESPACE", MockApiServer.NAMESPACE)), o -> {
                         o.precise = true;
                         o.tokenSource = new PodTokenizer(a::baseUrl);
                     }))) {
            // standalone: no InferencePool to wait for, synced once the pods are listed
            await().atMost(START).until(() -> router.discovery().synced() && router.health().ready());
            api.create(MockApiServer.pod("pod-a", "127.0.0.2", true, DECODE, events(a)));
            api.create(MockApiServer.pod("pod-b", "127.0.0.3", true, DECODE, events(b)));
            api.create(MockApiServer.pod("pod-p", "127.0.0.4", true, PREFILL, Map.of()));
            api.create(MockApiServer.pod("other", "127.0.0.5", true, Map.of("app", "web"), Map.of()));
            await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a", "pod-b")));
            assertThat(endpoint(router, "pod-a").endpoint().label(PublisherAddress.EVENTS_LABEL))
                    .isEqualTo(a.kvEventsEndpoint());
            await().atMost(FOLLOWS).until(() -> router.kvEvents().dialedPods().equals(List.of("pod-a", "pod-b")));
            // the selector's equalities are asked of the API server: a pod without app=vllm is not even cached
            assertThat(((KubernetesDiscovery) router.discovery()).cachedPods())
                    .containsExactlyInAnyOrder("pod-a", "pod-b", "pod-p");

            // the pod's labels change so the selector no longer matches: it leaves, its subscription closes
            api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName("pod-b").edit(p -> {
                p.getMetadata().getLabels().put("llm-d.ai/role", "prefill");
                return p;
            });
            await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a")));
            await().atMost(FOLLOWS).until(() -> router.kvEvents().dialedPods().equals(List.of("pod-a")));
            api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName("pod-a").delete();
            await().atMost(FOLLOWS).until(() -> names(router).isEmpty());
            await().atMost(FOLLOWS).until(() -> router.kvEvents().dialedPods().isEmpty());
            assertThat(router.health().ready()).as("an empty pool is still a synced one").isTrue();
        }
    }

    @Test
    void thePoolsInferenceObjectivesAndModelRewritesInTheClusterAreWhatRequestsAreReadWith() throws Exception {
        int port = freePortOnBoth();
        try (MockApiServer api = MockApiServer.start(dir); SimPod a = pod("a", "127.0.0.2", port, false);
             HttpJson http = new HttpJson();
             RouterServer router = RouterServer.start(options(api, KubernetesPool.inferencePool(
                     MockApiServer.NAMESPACE, "qwen", null, Map.of()), o -> { }))) {
            api.create(MockApiServer.inferencePool("qwen", Map.of("app", "vllm"), List.of(port)));
            api.create(MockApiServer.pod("pod-a", "127.0.0.2", true, DECODE, Map.of()));
            await().atMost(START).until(() -> names(router).equals(List.of("pod-a"))
                    && router.catalog().status("pod-a").modelsKnown());
            // no rewrite yet: a model no pod serves is refused
            assertThat(http.post(url(router, "/v1/completions"), completion("food-review")).statusCode())
                    .isEqualTo(404);
            assertThat(schedule(http, router, "critical").path("priority").asInt()).isZero();

            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("critical", "qwen", null,
                    10)).create();
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("theirs", "llama", null,
                    -1)).create();
            api.resources(KubernetesObjectives.REWRITES).resource(MockApiServer.rewrite("canary", "qwen",
                    "food-review", MODEL)).create();
            await().atMost(FOLLOWS).until(() -> router.objectives().priority("critical") == 10
                    && router.objectives().rewrites().size() == 1);
            // a request naming the objective has its priority (the decision says so); another pool's is 0
            JsonNode decision = schedule(http, router, "critical");
            assertThat(decision.path("objective").asText()).isEqualTo("critical");
            assertThat(decision.path("priority").asInt()).isEqualTo(10);
            assertThat(schedule(http, router, "theirs").path("priority").asInt()).isZero();
            // the rule sends food-review as the pod's model, and the answer names the model asked
            HttpResponse<String> rewritten = http.post(url(router, "/v1/completions"), completion("food-review"));
            assertThat(rewritten.statusCode()).as(rewritten.body()).isEqualTo(200);
            assertThat(HttpJson.json(rewritten).path("model").asText()).isEqualTo("food-review");

            // edited and deleted in the cluster: followed
            api.resources(KubernetesObjectives.OBJECTIVES).withName("critical").edit(o -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> spec = (Map<String, Object>) o.getAdditionalProperties().get("spec");
                spec.put("priority", 3);
                return o;
            });
            await().atMost(FOLLOWS).until(() -> schedule(http, router, "critical").path("priority").asInt() == 3);
            api.resources(KubernetesObjectives.REWRITES).withName("canary").delete();
            await().atMost(FOLLOWS).until(() -> router.objectives().rewrites().isEmpty());
            assertThat(http.post(url(router, "/v1/completions"), completion("food-review")).statusCode())
                    .isEqualTo(404);
        }
    }

    @Test
    void anObjectivesFileReplacesTheClustersObjectives() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("objectives.yaml"), """
                apiVersion: inference.networking.x-k8s.io/v1alpha2
                kind: InferenceObjective
                metadata: {name: critical}
                spec: {priority: 3, poolRef: {name: qwen}}
                """);
        try (MockApiServer api = MockApiServer.start(dir)) {
            api.create(MockApiServer.inferencePool("qwen", Map.of("app", "vllm"), List.of(8000)));
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("critical", "qwen", null,
                    10)).create();
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("batch", "qwen", null,
                    -1)).create();
            try (RouterServer router = RouterServer.start(options(api, KubernetesPool.inferencePool(
                    MockApiServer.NAMESPACE, "qwen", null, Map.of()), o -> o.objectivesFile = file))) {
                await().atMost(START).until(() -> router.discovery().synced());
                // the cluster's are not merged in, now or once they could have been listed
                await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(3)).until(() ->
                        router.objectives().priority("critical") == 3 && router.objectives().get("batch") == null);
            }
        }
    }

    private static String completion(String model) {
        return "{\"model\":\"" + model + "\",\"prompt\":\"Say something about food.\",\"max_tokens\":3}";
    }

    /** {@code POST /debug/schedule} for a completion naming {@code objective}: the decision it would make. */
    private static JsonNode schedule(HttpJson http, RouterServer router, String objective) {
        HttpResponse<String> res = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                        admin(router, "/debug/schedule"))).header("content-type", "application/json")
                .header("x-gateway-inference-objective", objective)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(completion(MODEL))).build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return HttpJson.json(res);
    }

    @Test
    void anApiServerThatIsAwayAtStartIsRetriedAndTheRouterIsReadyOnceItAnswers() throws Exception {
        int apiPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            apiPort = s.getLocalPort();
        }
        Path kubeconfig = MockApiServer.kubeconfig(dir, "http://127.0.0.1:" + apiPort + "/");
        try (RouterServer router = RouterServer.start(RouterOptions.defaults(List.of()).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.extProcPort = 0;
            o.healthPort = 0;
            o.kubernetes = KubernetesPool.inferencePool(MockApiServer.NAMESPACE, "qwen", null, Map.of());
            o.kubeconfig = kubeconfig;
        }))) {
            assertThat(router.health().ready()).as("nothing listed: not ready").isFalse();
            try (MockApiServer api = MockApiServer.start(dir, apiPort)) {
                api.create(MockApiServer.inferencePool("qwen", Map.of("app", "vllm"), List.of(8000)));
                api.create(MockApiServer.pod("pod-a", "127.0.0.2", true, DECODE, Map.of()));
                // the informers' backoff grows from a second: allow it a few rounds
                await().atMost(Duration.ofSeconds(30)).until(() -> router.health().ready());
                await().atMost(FOLLOWS).until(() -> names(router).equals(List.of("pod-a"))); // listed, or watched
            }
        }
    }

    private RouterOptions options(MockApiServer api, KubernetesPool pool,
                                  java.util.function.Consumer<RouterOptions.Builder> more) {
        return RouterOptions.defaults(List.of()).with(o -> {
            o.port = 0;
            o.adminPort = 0;
            o.extProcPort = 0;
            o.healthPort = 0;
            o.kubernetes = pool;
            o.kubeconfig = api.kubeconfig();
            more.accept(o);
        });
    }

    private static SimPod pod(String name, String host, int port, boolean kvEvents) {
        SimPodConfig.Builder b = SimPodConfig.builder().preset(Preset.byName("cpu-qwen2.5-0.5b")).model(MODEL)
                .servedModelNames(List.of(MODEL)).podName("pod-" + name).seed(name.hashCode()).host(host).port(port)
                .enablePromptTokensDetails(true).eosProbability(0)
                // 20 ms per decode step: a request of a few hundred tokens stays in flight for seconds
                .engine(Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 20_000, 20_000_000, 0)));
        if (kvEvents) {
            b.kvEvents(KvEventsConfig.zmq("tcp://" + host + ":*").withTopic("kv@pod-" + name + "@" + MODEL));
        }
        return SimPod.start(b.build());
    }

    private static Map<String, String> events(SimPod pod) {
        return Map.of(PublisherAddress.EVENTS_LABEL, pod.kvEventsEndpoint());
    }

    /** A port free on both 127.0.0.2 and 127.0.0.3, where the two simulated pods listen, as pods of one pool do. */
    private static int freePortOnBoth() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket s2 = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.2"))) {
                int port = s2.getLocalPort();
                if (port >= 65535) {
                    continue;
                }
                try (ServerSocket s3 = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.3"))) {
                    return port;
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        throw new IOException("no port free on both 127.0.0.2 and 127.0.0.3");
    }

    private static void setReady(MockApiServer api, String pod, boolean ready) {
        api.client().pods().inNamespace(MockApiServer.NAMESPACE).withName(pod).editStatus(p -> {
            for (PodCondition c : p.getStatus().getConditions()) {
                if (c.getType().equals("Ready")) {
                    c.setStatus(ready ? "True" : "False");
                    c.setLastTransitionTime(Instant.now().toString());
                }
            }
            return p;
        });
    }

    private static void editPool(MockApiServer api, Map<String, String> matchLabels, List<Integer> ports) {
        api.client().genericKubernetesResources(MockApiServer.INFERENCE_POOL).inNamespace(MockApiServer.NAMESPACE)
                .withName("qwen").edit(p -> {
                    p.setAdditionalProperty("spec", MockApiServer.inferencePool("qwen", matchLabels, ports)
                            .getAdditionalProperties().get("spec"));
                    return p;
                });
    }

    private static ServingStatus status(HealthGrpc.HealthBlockingStub health) {
        return health.check(HealthCheckRequest.newBuilder().setService("inference-extension").build()).getStatus();
    }

    private static String complete(HttpJson http, RouterServer router, int maxTokens) {
        HttpResponse<String> res = http.post(url(router, "/v1/completions"),
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + "Hello there, how are you today? ".repeat(40)
                        + "\",\"max_tokens\":"
                        + maxTokens + "}");
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return res.headers().firstValue("x-homing-pod").orElseThrow();
    }

    private static List<String> names(RouterServer router) {
        List<String> out = new ArrayList<>();
        router.pool().snapshot().endpoints().forEach(e -> out.add(e.name()));
        out.sort(null); // the pool keeps them in the order they joined
        return out;
    }

    private static EndpointState endpoint(RouterServer router, String name) {
        return router.pool().snapshot().endpoints().stream().filter(e -> e.name().equals(name)).findFirst()
                .orElse(null);
    }

    private static String url(RouterServer router, String path) {
        return "http://127.0.0.1:" + router.port() + path;
    }

    private static String admin(RouterServer router, String path) {
        return "http://127.0.0.1:" + router.adminPort() + path;
    }
}
