package dev.homing.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.router.RouterOptions;
import dev.homing.router.RouterServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The picker started exactly as llm-d's chart starts it. The argument list is the {@code epp} container's {@code args}
 * in kubernetes-sigs/gateway-api-inference-extension, config/charts/inferencepool/templates/epp-deployment.yaml at
 * commit 9d1514a3607eefbda6bcf8849aaf3654dba7f207, rendered as Helm would with the chart's defaults: the release
 * {@code vllm-llama3-8b-instruct} (the chart README's) in namespace {@code default}; {@code inferencePool.apiVersion}
 * {@code inference.networking.k8s.io} (so no {@code --pool-group}); {@code pluginsConfigFile}
 * {@code default-plugins.yaml}; {@code modelServerType} vllm (no Triton metric flags); no extra {@code flags};
 * {@code tracing.enabled} and {@code monitoring.prometheus.enabled} false; {@code replicas} 1, and 2 for the HA case
 * (which adds {@code --ha-enable-leader-election}). The environment is the chart's too ({@code NAMESPACE} from the
 * pod). Two things differ from a pod, neither an argument: the config volume is mounted at a temporary directory in
 * place of {@code /config}, and the ports the chart leaves at their defaults (9002, 9003, 9090, and the API's 8000) are
 * moved to free ones, so the test runs beside others; that those defaults are llm-d's is checked on its own.
 */
class LlmdChartArgsIT {

    private static final String RELEASE = "vllm-llama3-8b-instruct";
    private static final String POD_NAME = RELEASE + "-epp-5f7d9c8b4-x2x7k";

    /**
     * The chart's args, rendered from the template itself (test resource llmd-chart/epp-deployment.yaml, verbatim at
     * the commit above) with the defaults above; {@code CONFIG/} is where the chart mounts its ConfigMap
     * ({@code /config/}).
     */
    private static List<String> chartArgs(Path config, boolean ha) {
        Map<String, Boolean> conditions = Map.of(
                "ne .Values.inferencePool.apiVersion \"inference.networking.k8s.io\"", false,
                "eq (.Values.inferencePool.modelServerType | default \"vllm\") \"triton-tensorrt-llm\"", false,
                "gt (.Values.inferenceExtension.replicas | int) 1", ha,
                "range $key, $value := .Values.inferenceExtension.flags", false,
                ".Values.inferenceExtension.tracing.enabled", false,
                "not .Values.inferenceExtension.monitoring.prometheus.enabled", true);
        Map<String, String> values = Map.of(
                "{{ .Release.Name }}", RELEASE,
                "{{ .Release.Namespace }}", "default",
                "/config/{{ .Values.inferenceExtension.pluginsConfigFile }}",
                config.resolve("default-plugins.yaml").toString());
        return renderEppArgs(conditions, values);
    }

    /**
     * The {@code epp} container's {@code args} of the chart's template, as Helm renders them: comments dropped, each
     * {@code if}/{@code else}/{@code range} block kept or left by {@code conditions} (a block this test does not
     * know fails it), quotes taken off, {@code values} put in; anything left unrendered fails.
     */
    private static List<String> renderEppArgs(Map<String, Boolean> conditions, Map<String, String> values) {
        List<String> lines;
        try (var in = LlmdChartArgsIT.class.getResourceAsStream("/llmd-chart/epp-deployment.yaml")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = lines.indexOf("      - name: epp");
        while (!lines.get(i).equals("        args:")) {
            i++;
        }
        ArrayDeque<Boolean> kept = new ArrayDeque<>();
        List<String> args = new ArrayList<>();
        for (i++; lines.get(i).startsWith("        -") || lines.get(i).startsWith("        {{")
                || lines.get(i).startsWith("        #"); i++) {
            String l = lines.get(i).strip();
            if (l.startsWith("#")) {
                continue;
            }
            if (l.startsWith("{{- if ") || l.startsWith("{{- range ")) {
                String cond = l.substring(l.startsWith("{{- if ") ? 7 : 4, l.length() - 3).strip();
                Boolean on = conditions.get(cond);
                assertThat(on).as("a block of the chart this test does not know: " + l).isNotNull();
                kept.push(on);
            } else if (l.equals("{{- else }}")) {
                kept.push(!kept.pop());
            } else if (l.equals("{{- end }}")) {
                kept.pop();
            } else if (!kept.contains(false)) {
                String a = l.substring(2).replaceFirst(" # .*$", "").strip();
                if (a.startsWith("\"") && a.endsWith("\"")) {
                    a = a.substring(1, a.length() - 1);
                }
                for (Map.Entry<String, String> v : values.entrySet()) {
                    a = a.replace(v.getKey(), v.getValue());
                }
                assertThat(a).as("rendered").doesNotContain("{{");
                args.add(a);
            }
        }
        assertThat(kept).as("blocks closed").isEmpty();
        return args;
    }

    private static final CustomResourceDefinitionContext INFERENCE_POOL = new CustomResourceDefinitionContext.Builder()
            .withGroup("inference.networking.k8s.io").withVersion("v1").withKind("InferencePool")
            .withPlural("inferencepools").withScope("Namespaced").build();

    @TempDir
    Path dir;
    private KubernetesMockServer server;
    private NamespacedKubernetesClient client;
    private String previousKubeconfig;

    @BeforeEach
    void apiServer() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(List.of(INFERENCE_POOL)), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient();
        // the chart passes no kubeconfig: in a pod the service account is found; here fabric8 finds this file
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - {name: mock, cluster: {server: "%s"}}
                users:
                - {name: epp, user: {token: "not-checked"}}
                contexts:
                - {name: mock, context: {cluster: mock, user: epp, namespace: default}}
                current-context: mock
                """.formatted(client.getConfiguration().getMasterUrl()));
        previousKubeconfig = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", kubeconfig.toString());
        client.genericKubernetesResources(INFERENCE_POOL).inNamespace("default").resource(
                new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.k8s.io/v1")
                        .withKind("InferencePool").withNewMetadata().withName(RELEASE).withNamespace("default")
                        .endMetadata().addToAdditionalProperties("spec", Map.of(
                                "selector", Map.of("matchLabels", Map.of("app", RELEASE)),
                                "targetPorts", List.of(Map.of("number", 8000)),
                                "endpointPickerRef", Map.of("name", RELEASE + "-epp", "port",
                                        Map.of("number", 9002)))).build()).create();
        try (InputStream in = getClass().getResourceAsStream("/llmd-chart/default-plugins.yaml")) {
            Files.write(dir.resolve("default-plugins.yaml"), in.readAllBytes());
        }
    }

    @AfterEach
    void stop() {
        if (previousKubeconfig == null) {
            System.clearProperty("kubeconfig");
        } else {
            System.setProperty("kubeconfig", previousKubeconfig);
        }
        client.close();
        server.destroy();
    }

    @Test
    void theChartsArgumentsStartAReadyPickerAndTheIgnoredOnesAreNamedInOneLine() throws Exception {
        startsReady(false, "inference-extension", router -> assertThat(router.election()).isNull());
    }

    @Test
    void withTwoReplicasTheChartAddsLeaderElectionAndTheLoneReplicaLeads() throws Exception {
        startsReady(true, "readiness", router -> {
            // llm-d's Lease, in the pool's namespace, held by this replica
            Lease lease = client.leases().inNamespace("default").withName("epp-default-" + RELEASE + ".llm-d.ai")
                    .get();
            assertThat(lease).as("llm-d's lease name").isNotNull();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(router.election().identity());
            assertThat(router.election().leader()).isTrue();
        });
    }

    @Test
    void thePortsTheChartLeavesToTheirDefaultsAreLlmdsOnes() {
        ServeCommand serve = new ServeCommand();
        serve.env = Map.of("NAMESPACE", "default");
        new CommandLine(serve).parseArgs(chartArgs(dir, false).toArray(String[]::new));
        RouterOptions o = serve.options();
        assertThat(o.extProcPort()).isEqualTo(9002);
        assertThat(o.healthPort()).isEqualTo(9003);
        assertThat(o.adminPort()).isEqualTo(9090); // the chart's "metrics" container port
        assertThat(o.secureServing()).isTrue(); // llm-d's default: TLS on 9002
        // llm-d's picker binds every interface; so does Homing in a pod, when nothing names an address
        assertThat(System.getenv("HOMING_HOST")).as("this test reads serve's default: run it without HOMING_HOST")
                .isNull();
        assertThat(System.getenv("HOMING_ADMIN_HOST")).isNull();
        assertThat(o.host()).isEqualTo("0.0.0.0");
        assertThat(o.adminHost()).isEqualTo("0.0.0.0");
    }

    @Test
    void theBindAddressesAreTheFlagsElseTheEnvironmentsElseLoopbackWithoutKubernetes() {
        assertThat(System.getenv("HOMING_HOST")).as("this test reads serve's default: run it without HOMING_HOST")
                .isNull();
        assertThat(bound(Map.of(), "--endpoints", "a=127.0.0.1:8000")).containsExactly("127.0.0.1", "127.0.0.1");
        assertThat(bound(Map.of(), "--endpoint-selector", "app=vllm", "--endpoint-target-ports", "8000"))
                .containsExactly("0.0.0.0", "0.0.0.0");
        assertThat(bound(Map.of("HOMING_HOST", "10.1.2.3", "HOMING_ADMIN_HOST", "127.0.0.1"), "--pool-name", "p"))
                .containsExactly("10.1.2.3", "127.0.0.1");
        assertThat(bound(Map.of(), "--pool-name", "p", "--host", "127.0.0.1", "--admin-host", "::1"))
                .containsExactly("127.0.0.1", "::1");
    }

    private static List<String> bound(Map<String, String> env, String... args) {
        ServeCommand serve = new ServeCommand();
        Map<String, String> all = new HashMap<>(env);
        all.put("NAMESPACE", "default");
        serve.env = all;
        new CommandLine(serve).parseArgs(args);
        RouterOptions o = serve.options();
        return List.of(o.host(), o.adminHost());
    }

    private void startsReady(boolean ha, String probedService, Consumer<RouterServer> alsoWhileRunning)
            throws Exception {
        ServeCommand serve = new ServeCommand();
        // the chart's environment, and loopback addresses: a pod would bind every interface, a test binds loopback
        serve.env = Map.of("NAMESPACE", "default", "POD_NAME", POD_NAME, "HOMING_HOST", "127.0.0.1",
                "HOMING_ADMIN_HOST", "127.0.0.1");
        Set<String> ports = Set.of("--port", "--grpc-port", "--grpc-health-port", "--admin-port");
        CommandLine cl = new CommandLine(serve).setDefaultValueProvider(arg ->
                arg instanceof CommandLine.Model.OptionSpec opt && java.util.Arrays.stream(opt.names()).anyMatch(ports::contains) ? "0" : null);
        cl.parseArgs(chartArgs(dir, ha).toArray(String[]::new));
        assertThat(serve.ignored.warning()).isEqualTo("homing serve: warning: ignoring llm-d flags Homing has no use "
                + "for: --zap-encoder json, --tracing=false, --metrics-endpoint-auth=false");
        RouterOptions options = serve.options();
        assertThat(options.kubernetes().namespace()).isEqualTo("default");
        assertThat(options.kubernetes().name()).isEqualTo(RELEASE);
        assertThat(options.configFile()).isEqualTo(dir.resolve("default-plugins.yaml"));
        assertThat(options.election() != null).isEqualTo(ha);
        RouterServer router = RouterServer.start(options);
        try {
            ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", router.healthPort()).usePlaintext()
                    .build();
            try {
                HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(ch);
                // what the chart's readiness probe asks (grpc port 9003, this service)
                await().atMost(Duration.ofSeconds(30)).until(() -> health.check(HealthCheckRequest.newBuilder()
                        .setService(probedService).build()).getStatus() == ServingStatus.SERVING);
                assertThat(health.check(HealthCheckRequest.newBuilder().setService("liveness").build()).getStatus())
                        .isEqualTo(ServingStatus.SERVING);
                assertThat(router.discovery().synced()).isTrue();
                // the chart's config file runs: its three scorers, weighted 2, 2, 3
                assertThat(router.config().profiles().getFirst().scorers()).extracting(w -> w.type() + " x" + w.weight())
                        .containsExactly("queue-scorer x2.0", "kv-cache-utilization-scorer x2.0",
                                "prefix-cache-scorer x3.0");
                alsoWhileRunning.accept(router);
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } finally {
            router.close();
        }
    }
}
