package dev.homing.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.cli.Main;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.router.RouterOptions;
import dev.homing.router.SystemTicker;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * deploy/ rendered by the machine's {@code kubectl kustomize} (its version printed; a missing or too old kubectl
 * fails), every overlay and the leader-election component, and read back as fabric8's Kubernetes types, with no field
 * the types do not know. The InferencePool, for which fabric8 has no model, is checked against the InferencePool v1
 * CRD ({@code inference.networking.k8s.io_inferencepools.yaml}: kubernetes-sigs/gateway-api-inference-extension's
 * {@code config/crd/bases} file as carried by zdtsw-forking/llm-d-inference-scheduler at
 * 6ac99366167d1f7b8319d59459ac53fe916d0032, unchanged; the search tools' copy from kubernetes-sigs itself, at
 * 712f8003, predates v1's endpointPickerRef). Then what ties the objects together: Services to pods and named ports,
 * volumes to the generated ConfigMap, the config in it to Homing's config loader, RBAC to the ServiceAccount.
 */
class KustomizeOverlaysIT {

    static final String NAMESPACE = "homing";
    static final String LEADER_ELECTION = "gateway + components/leader-election";
    static final Map<String, Manifests> RENDERED = new LinkedHashMap<>();
    static CrdSchema inferencePool;

    @BeforeAll
    static void render() throws Exception {
        System.out.println("deploy/ rendered with " + Kubectl.checkedVersion());
        Path deploy = DeployFiles.deploy();
        for (String dir : List.of("base", "overlays/standalone-proxy", "overlays/gateway", "overlays/ha-redis")) {
            RENDERED.put(dir, Manifests.parse(dir, Kubectl.kustomize(deploy.resolve(dir))));
        }
        // The component as a user adds it to the gateway overlay: a kustomization of their own beside deploy/.
        Path own = DeployFiles.repoRoot().resolve("homing-cli/target/kustomize-leader-election");
        Files.createDirectories(own);
        String rel = own.relativize(deploy).toString();
        Files.writeString(own.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - %1$s/overlays/gateway
                components:
                - %1$s/components/leader-election
                """.formatted(rel));
        RENDERED.put(LEADER_ELECTION, Manifests.parse(LEADER_ELECTION, Kubectl.kustomize(own)));
        try (InputStream in = KustomizeOverlaysIT.class.getResourceAsStream("inference.networking.k8s.io_inferencepools.yaml")) {
            inferencePool = CrdSchema.of(Manifests.SERIALIZATION.unmarshal(in, CustomResourceDefinition.class), "v1");
        }
    }

    static List<String> renderings() {
        return List.of("base", "overlays/standalone-proxy", "overlays/gateway", "overlays/ha-redis", LEADER_ELECTION);
    }

    @ParameterizedTest
    @MethodSource("renderings")
    void everyObjectIsATypedKubernetesObjectWithOnlyKnownFields(String name) throws Exception {
        Manifests m = RENDERED.get(name);
        assertThat(m.objects()).isNotEmpty();
        assertThat(m.unknownFields()).as(name).isEmpty();
        for (HasMetadata o : m.objects()) {
            assertThat(o.getMetadata().getNamespace()).as(name + " " + o.getKind() + "/" + o.getMetadata().getName())
                    .isEqualTo(NAMESPACE);
            if (o instanceof GenericKubernetesResource g) {
                assertThat(g.getKind()).as(name + ": only the InferencePool lacks a fabric8 model")
                        .isEqualTo("InferencePool");
                assertThat(inferencePool.violations(new ObjectMapper().readTree(Manifests.SERIALIZATION.asJson(g))))
                        .as(name + " InferencePool/" + g.getMetadata().getName() + " against the v1 CRD").isEmpty();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("renderings")
    void servicesPodsPortsVolumesAndRbacReferToWhatIsThere(String name) {
        Manifests m = RENDERED.get(name);
        for (Deployment d : m.all(Deployment.class)) {
            Map<String, String> pod = d.getSpec().getTemplate().getMetadata().getLabels();
            assertThat(pod).as(d.getMetadata().getName() + " selects its own pods")
                    .containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
            String sa = d.getSpec().getTemplate().getSpec().getServiceAccountName();
            if (sa != null) {
                assertThat(m.find(ServiceAccount.class, sa)).as(name + ": ServiceAccount " + sa).isPresent();
            }
            for (Volume v : d.getSpec().getTemplate().getSpec().getVolumes()) {
                if (v.getConfigMap() != null) {
                    assertThat(m.find(ConfigMap.class, v.getConfigMap().getName()))
                            .as(name + ": ConfigMap " + v.getConfigMap().getName()).isPresent();
                }
            }
            for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
                for (Probe p : new Probe[] {c.getStartupProbe(), c.getLivenessProbe(), c.getReadinessProbe()}) {
                    if (p != null && p.getHttpGet() != null) {
                        assertThat(hasPort(c, p.getHttpGet().getPort())).as(name + " " + c.getName() + " HTTP probe "
                                + p.getHttpGet().getPort()).isTrue();
                    }
                    if (p != null && p.getGrpc() != null) {
                        assertThat(hasPort(c, new IntOrString(p.getGrpc().getPort()))).as(name + " gRPC probe").isTrue();
                    }
                }
            }
        }
        for (Service s : m.all(Service.class)) {
            Deployment target = m.all(Deployment.class).stream()
                    .filter(d -> d.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                            .containsAll(s.getSpec().getSelector().entrySet()))
                    .findFirst().orElseThrow(() -> new AssertionError(name + ": Service " + s.getMetadata().getName()
                            + " selects no Deployment's pods"));
            Container c = target.getSpec().getTemplate().getSpec().getContainers().get(0);
            for (ServicePort p : s.getSpec().getPorts()) {
                assertThat(hasPort(c, p.getTargetPort())).as(name + ": Service " + s.getMetadata().getName() + " port "
                        + p.getName() + " -> " + p.getTargetPort()).isTrue();
            }
        }
        for (PodDisruptionBudget b : m.all(PodDisruptionBudget.class)) {
            assertThat(m.all(Deployment.class)).as(name + ": the PDB covers a Deployment's pods")
                    .anySatisfy(d -> assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
                            .containsAllEntriesOf(b.getSpec().getSelector().getMatchLabels()));
        }
        for (RoleBinding rb : m.all(RoleBinding.class)) {
            assertThat(m.find(Role.class, rb.getRoleRef().getName())).as(name + ": Role " + rb.getRoleRef().getName())
                    .isPresent();
            assertThat(rb.getSubjects()).allSatisfy(sub -> {
                assertThat(sub.getKind()).isEqualTo("ServiceAccount");
                assertThat(m.find(ServiceAccount.class, sub.getName())).isPresent();
                assertThat(sub.getNamespace()).isEqualTo(NAMESPACE);
            });
        }
    }

    @ParameterizedTest
    @MethodSource("renderings")
    void theConfigFileTheRouterIsGivenIsInItsConfigMapAndLoads(String name) throws Exception {
        Manifests m = RENDERED.get(name);
        Deployment d = m.one(Deployment.class, "homing");
        Container c = container(d);
        String file = arg(c, "--config-file");
        VolumeMount mount = c.getVolumeMounts().stream().filter(v -> file.startsWith(v.getMountPath() + "/"))
                .findFirst().orElseThrow(() -> new AssertionError(name + ": " + file + " is on no volume"));
        String configMap = d.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow().getConfigMap().getName();
        String text = m.one(ConfigMap.class, configMap).getData().get(file.substring(mount.getMountPath().length() + 1));
        assertThat(text).as(name + ": " + file + " in ConfigMap " + configMap).isNotNull();
        assertThat(text).isEqualTo(Files.readString(DeployFiles.deploy().resolve("base/config.yaml"), StandardCharsets.UTF_8));
        ResolvedConfig r = new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, file),
                new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(0), new EndpointPool()));
        assertThat(r.warnings()).isEmpty();
        assertThat(r.profiles()).hasSize(1);
    }

    @ParameterizedTest
    @MethodSource("renderings")
    void theContainersArgumentsAreHomingServesOptions(String name) {
        // The container gives arguments only, to the image's entrypoint (which runs a flags-first line, as llm-d's
        // chart passes it, as `homing serve`): every one must be an option serve knows, with a value it takes, or
        // the pod would crash-loop on start.
        Container c = container(RENDERED.get(name).one(Deployment.class, "homing"));
        assertThat(c.getCommand()).as(name + ": the image's entrypoint is kept").isNullOrEmpty();
        assertThat(c.getArgs()).as(name).isNotEmpty();
        List<String> line = new ArrayList<>(c.getArgs().get(0).startsWith("-") ? List.of("serve") : List.of());
        line.addAll(c.getArgs());
        CommandLine cli = new CommandLine(new Main());
        ParseResult parsed = cli.parseArgs(line.toArray(String[]::new));
        assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("serve");
        assertThat(parsed.subcommand().unmatched()).as(name).isEmpty();
    }

    @Test
    void baseIsThePickerOfAPoolWithProbesADrainAndLeastPrivilege() {
        Manifests m = RENDERED.get("base");
        assertThat(m.names()).containsExactlyInAnyOrder("ServiceAccount/homing", "Role/homing", "RoleBinding/homing",
                "ConfigMap/" + m.all(ConfigMap.class).get(0).getMetadata().getName(), "Service/homing-epp",
                "Service/homing", "Service/homing-metrics", "Deployment/homing", "PodDisruptionBudget/homing");
        Container c = container(m.one(Deployment.class, "homing"));
        assertThat(arg(c, "--pool-name")).isEqualTo("homing-pool");
        assertThat(arg(c, "--pool-namespace")).isEqualTo("$(NAMESPACE)");
        assertThat(c.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("NAMESPACE");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        });
        assertThat(arg(c, "--grpc-port")).isEqualTo("9002");
        assertThat(arg(c, "--grpc-health-port")).isEqualTo("9003");
        assertThat(arg(c, "--metrics-port")).isEqualTo("9090");
        assertThat(arg(c, "--host")).isEqualTo("0.0.0.0");
        assertThat(arg(c, "--admin-host")).isEqualTo("0.0.0.0");
        assertThat(c.getLivenessProbe().getGrpc().getPort()).isEqualTo(9003);
        assertThat(c.getLivenessProbe().getGrpc().getService()).isEqualTo("liveness");
        assertThat(c.getReadinessProbe().getGrpc().getPort()).isEqualTo(9003);
        assertThat(c.getReadinessProbe().getGrpc().getService()).isEqualTo("readiness");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getLifecycle().getPreStop().getExec().getCommand()).containsExactly("/bin/sh", "-c", "sleep 30");
        assertThat(m.one(Deployment.class, "homing").getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .as("the grace period outlasts the preStop drain, then the router's own drain, with a margin")
                .isGreaterThanOrEqualTo(30 + RouterOptions.defaults(List.of()).drainTimeout().toSeconds() + 10);
        assertThat(rules(m.one(Role.class, "homing"))).containsExactlyInAnyOrder(
                "/pods: get,list,watch",
                "inference.networking.k8s.io/inferencepools: get,list,watch",
                "llm-d.ai/inferenceobjectives: get,list,watch",
                "llm-d.ai/inferencemodelrewrites: get,list,watch",
                "inference.networking.x-k8s.io/inferenceobjectives: get,list,watch",
                "inference.networking.x-k8s.io/inferencemodelrewrites: get,list,watch",
                "coordination.k8s.io/leases: create,get,update");
        assertThat(ports(m.one(Service.class, "homing-epp"))).containsExactlyInAnyOrder(9002, 9003);
        assertThat(ports(m.one(Service.class, "homing"))).containsExactly(8000);
        assertThat(ports(m.one(Service.class, "homing-metrics"))).containsExactly(9090);
        PodDisruptionBudget pdb = m.one(PodDisruptionBudget.class, "homing");
        assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(allowedDisruptions(pdb, 2, 2)).as("two ready replicas: one may go").isEqualTo(1);
    }

    @Test
    void theGatewayOverlayNamesHomingsExtProcServiceFromAnInferencePoolThatAnHttpRouteUses() {
        Manifests m = RENDERED.get("overlays/gateway");
        GenericKubernetesResource pool = m.generic("InferencePool").get(0);
        assertThat(pool.getApiVersion()).isEqualTo("inference.networking.k8s.io/v1");
        Map<String, Object> spec = pool.get("spec");
        Map<String, Object> picker = pool.get("spec", "endpointPickerRef");
        Service epp = m.one(Service.class, (String) picker.get("name"));
        Number port = pool.get("spec", "endpointPickerRef", "port", "number");
        assertThat(ports(epp)).contains(port.intValue());
        assertThat(spec).containsKey("targetPorts");
        Container c = container(m.one(Deployment.class, "homing"));
        assertThat(arg(c, "--pool-name")).isEqualTo(pool.getMetadata().getName());
        assertThat(c.getArgs()).contains("--no-proxy");
        assertThat(m.find(Service.class, "homing")).as("no API Service without the proxy").isEmpty();
        HTTPRoute route = m.one(HTTPRoute.class, "homing");
        assertThat(route.getSpec().getRules()).singleElement().satisfies(r -> assertThat(r.getBackendRefs())
                .singleElement().satisfies(b -> {
                    assertThat(b.getGroup()).isEqualTo("inference.networking.k8s.io");
                    assertThat(b.getKind()).isEqualTo("InferencePool");
                    assertThat(b.getName()).isEqualTo(pool.getMetadata().getName());
                }));
    }

    @Test
    void haRedisRunsTwoReplicasSharingOneRedis() {
        Manifests m = RENDERED.get("overlays/ha-redis");
        Deployment d = m.one(Deployment.class, "homing");
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        String redis = arg(container(d), "--redis");
        assertThat(redis).isEqualTo("redis://homing-redis:6379");
        assertThat(ports(m.one(Service.class, "homing-redis"))).containsExactly(6379);
        assertThat(container(d).getArgs()).doesNotContain("--ha-enable-leader-election");
        assertThat(m.one(Deployment.class, "homing-redis").getSpec().getTemplate().getSpec().getContainers().get(0)
                .getArgs()).contains("--maxmemory", "--maxmemory-policy", "allkeys-lru");
        assertThat(m.generic("InferencePool")).hasSize(1);
    }

    @Test
    void leaderElectionRunsTwoReplicasOfWhichTheLeaderServes() {
        Deployment d = RENDERED.get(LEADER_ELECTION).one(Deployment.class, "homing");
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        assertThat(container(d).getArgs()).contains("--ha-enable-leader-election");
        assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
        assertThat(rules(RENDERED.get(LEADER_ELECTION).one(Role.class, "homing")))
                .contains("coordination.k8s.io/leases: create,get,update");
    }

    @Test
    void underLeaderElectionTheLeaderCanBeEvictedWhileItIsTheOnlyReadyReplica() {
        Manifests m = RENDERED.get(LEADER_ELECTION);
        int replicas = m.one(Deployment.class, "homing").getSpec().getReplicas();
        PodDisruptionBudget pdb = m.one(PodDisruptionBudget.class, "homing");
        // only the leader is ever ready: a drain of its node must be able to evict it (the standby, not ready, is
        // evicted whatever the budget under unhealthyPodEvictionPolicy AlwaysAllow)
        assertThat(allowedDisruptions(pdb, replicas, 1)).as("disruptions allowed with the leader alone ready")
                .isGreaterThanOrEqualTo(1);
        assertThat(pdb.getSpec().getUnhealthyPodEvictionPolicy()).isEqualTo("AlwaysAllow");
    }

    @Test
    void underLeaderElectionSigtermComesAtOnceSoTheLeaderGivesItsLeaseUpFirst() {
        // A preStop sleep would keep an unready leader holding the Lease: no ready picker for its length.
        Container c = container(RENDERED.get(LEADER_ELECTION).one(Deployment.class, "homing"));
        assertThat(c.getLifecycle() == null ? null : c.getLifecycle().getPreStop()).as("no preStop").isNull();
        // the base keeps its drain for active-active replicas, each ready
        assertThat(container(RENDERED.get("overlays/ha-redis").one(Deployment.class, "homing")).getLifecycle()
                .getPreStop()).isNotNull();
    }

    /**
     * The disruption controller's allowed disruptions: ready pods minus the desired healthy, which is the expected
     * count less maxUnavailable (a percentage of it rounded up) or minAvailable (rounded up), never below 0.
     */
    static int allowedDisruptions(PodDisruptionBudget pdb, int expected, int ready) {
        IntOrString max = pdb.getSpec().getMaxUnavailable();
        IntOrString min = pdb.getSpec().getMinAvailable();
        int desired;
        if (max != null) {
            desired = Math.max(0, expected - scaled(max, expected));
        } else {
            desired = scaled(min, expected);
        }
        return Math.max(0, ready - desired);
    }

    private static int scaled(IntOrString v, int of) {
        if (v.getIntVal() != null) {
            return v.getIntVal();
        }
        String s = v.getStrVal();
        assertThat(s).as("a PDB's string value is a percentage").endsWith("%");
        int percent = Integer.parseInt(s.substring(0, s.length() - 1));
        return (percent * of + 99) / 100;
    }

    @Test
    void theStandaloneProxyFindsPodsBySelectorAndReadsNothingElse() {
        Manifests m = RENDERED.get("overlays/standalone-proxy");
        Container c = container(m.one(Deployment.class, "homing"));
        assertThat(arg(c, "--endpoint-selector")).isEqualTo("app=vllm");
        assertThat(arg(c, "--endpoint-target-ports")).isEqualTo("8000");
        assertThat(c.getArgs()).doesNotContain("--pool-name", "--grpc-port");
        // serve would open ext_proc and its health with --endpoint-selector: both turned off, as no port is declared
        assertThat(arg(c, "--ext-proc-port")).isEqualTo("-1");
        assertThat(arg(c, "--grpc-health-port")).isEqualTo("-1");
        assertThat(c.getPorts()).extracting(ContainerPort::getContainerPort).containsExactlyInAnyOrder(8000, 9090);
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(m.find(Service.class, "homing-epp")).isEmpty();
        assertThat(m.generic("InferencePool")).isEmpty();
        assertThat(rules(m.one(Role.class, "homing"))).containsExactly("/pods: get,list,watch");
    }

    private static Container container(Deployment d) {
        return d.getSpec().getTemplate().getSpec().getContainers().stream().filter(c -> c.getName().equals("homing"))
                .findFirst().orElseThrow();
    }

    /** The value after {@code flag} in the container's arguments. */
    private static String arg(Container c, String flag) {
        List<String> args = c.getArgs();
        int i = args.indexOf(flag);
        assertThat(i).as(flag + " in " + args).isNotNegative();
        assertThat(args.size()).as(flag + " has a value").isGreaterThan(i + 1);
        return args.get(i + 1);
    }

    private static boolean hasPort(Container c, IntOrString port) {
        return c.getPorts().stream().anyMatch(p -> port.getIntVal() != null ? port.getIntVal().equals(p.getContainerPort())
                : port.getStrVal().equals(p.getName()));
    }

    private static List<Integer> ports(Service s) {
        return s.getSpec().getPorts().stream().map(ServicePort::getPort).toList();
    }

    /** "group/resource: verbs" per group and resource, verbs sorted. */
    private static Set<String> rules(Role role) {
        Set<String> out = new java.util.TreeSet<>();
        for (PolicyRule r : role.getRules()) {
            for (String g : r.getApiGroups()) {
                for (String res : r.getResources()) {
                    out.add(g + "/" + res + ": " + r.getVerbs().stream().sorted().collect(Collectors.joining(",")));
                }
            }
        }
        return out;
    }
}
