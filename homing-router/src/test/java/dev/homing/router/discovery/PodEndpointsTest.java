package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.precise.events.PublisherAddress;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which pods are endpoints, at which ports, with which labels; how selectors, pools and flags are read. */
class PodEndpointsTest {

    private static final LabelSelector VLLM = LabelSelector.matchLabels(Map.of("app", "vllm"));

    @Test
    void onlyReadyMatchingPodsWithAnIpAndNoDeletionTimestampAreEndpoints() {
        Pod ready = pod("a", "10.0.0.1", "True", Map.of("app", "vllm", "llm-d.ai/role", "decode"));
        Pod notReady = pod("b", "10.0.0.2", "False", Map.of("app", "vllm"));
        Pod other = pod("c", "10.0.0.3", "True", Map.of("app", "web"));
        Pod noIp = pod("d", null, "True", Map.of("app", "vllm"));
        Pod deleting = new PodBuilder(pod("e", "10.0.0.5", "True", Map.of("app", "vllm"))).editMetadata()
                .withDeletionTimestamp("2026-12-02T00:00:00Z").endMetadata().build();
        PodEndpoints found = PodEndpoints.of(List.of(deleting, noIp, other, notReady, ready), VLLM, List.of(8000));
        assertThat(found.endpoints()).containsExactly(new Endpoint("a", "10.0.0.1", 8000,
                Map.of("app", "vllm", "llm-d.ai/role", "decode")));
        assertThat(found.problems()).isEmpty();
    }

    @Test
    void eachTargetPortIsAnEndpointTheFirstNamedAsThePodAndActivePortsNarrowThem() {
        Pod a = pod("a", "10.0.0.1", "True", Map.of("app", "vllm"));
        Pod b = new PodBuilder(pod("b", "10.0.0.2", "True", Map.of("app", "vllm"))).editMetadata()
                .withAnnotations(Map.of(PodEndpoints.ACTIVE_PORTS, "8001, x")).endMetadata().build();
        List<Endpoint> endpoints = PodEndpoints.of(List.of(b, a), VLLM, List.of(8000, 8001)).endpoints();
        assertThat(endpoints).extracting(e -> e.name() + "@" + e.host() + ":" + e.port())
                .containsExactly("a@10.0.0.1:8000", "a-rank-1@10.0.0.1:8001", "b-rank-1@10.0.0.2:8001");
    }

    @Test
    void kvEventAddressesComeFromAnnotationsAndABadOneIsIgnoredWithAProblem() {
        Pod good = new PodBuilder(pod("a", "10.0.0.1", "True", Map.of("app", "vllm"))).editMetadata()
                .withAnnotations(Map.of(PublisherAddress.EVENTS_LABEL, "tcp://10.0.0.1:5557")).endMetadata().build();
        Pod bad = new PodBuilder(pod("b", "10.0.0.2", "True", Map.of("app", "vllm"))).editMetadata()
                .withAnnotations(Map.of(PublisherAddress.EVENTS_LABEL, "10.0.0.2:5557")).endMetadata().build();
        PodEndpoints found = PodEndpoints.of(List.of(good, bad), VLLM, List.of(8000));
        assertThat(found.endpoints().get(0).label(PublisherAddress.EVENTS_LABEL)).isEqualTo("tcp://10.0.0.1:5557");
        assertThat(found.endpoints().get(1).label(PublisherAddress.EVENTS_LABEL)).isNull();
        assertThat(found.problems()).singleElement().asString().startsWith("pod b: annotation ");
    }

    @Test
    void selectorsReadAsApimachineryReadsThem() {
        LabelSelector s = LabelSelector.parse("app=vllm, llm-d.ai/role in (decode,both),tier!=cpu,gpu,!draining");
        assertThat(s.matches(Map.of("app", "vllm", "llm-d.ai/role", "decode", "gpu", "h100"))).isTrue();
        assertThat(s.matches(Map.of("app", "vllm", "llm-d.ai/role", "prefill", "gpu", "h100"))).isFalse();
        assertThat(s.matches(Map.of("app", "vllm", "llm-d.ai/role", "both", "gpu", "", "tier", "cpu"))).isFalse();
        assertThat(s.matches(Map.of("app", "vllm", "llm-d.ai/role", "both", "gpu", "", "draining", "y"))).isFalse();
        assertThat(s.matches(Map.of("app", "vllm", "llm-d.ai/role", "both"))).as("gpu must exist").isFalse();
        assertThat(s).hasToString("app=vllm,llm-d.ai/role in (decode,both),tier!=cpu,gpu,!draining");
        assertThat(s.equalities()).as("what an API server is asked to filter by").isEqualTo(Map.of("app", "vllm"));
        assertThat(LabelSelector.parse("a==1,b=2,c in (3)").equalities()).isEqualTo(Map.of("a", "1", "b", "2"));
        assertThat(LabelSelector.parse("").matches(Map.of("any", "thing"))).isTrue();
        assertThatThrownBy(() -> LabelSelector.parse("app in (a,b")).hasMessage("selector 'app in (a,b': '(' "
                + "without ')'");
        assertThatThrownBy(() -> LabelSelector.parse("app is vllm")).hasMessageContaining("'app is vllm' is none of");
        assertThatThrownBy(() -> LabelSelector.parse("app=,,x")).hasMessageContaining("an empty requirement");
        assertThatThrownBy(() -> LabelSelector.parse("Bad_Key!/x=1")).hasMessageStartingWith("selector "
                + "'Bad_Key!/x=1': key ");
    }

    @Test
    void anInferencePoolIsReadAndWhatCannotBeUsedIsSaid() {
        InferencePoolSpec spec = InferencePoolSpec.of(pool(Map.of("selector", Map.of("matchLabels", Map.of("app",
                "vllm")), "targetPorts", List.of(Map.of("number", 8000), Map.of("number", 8000), Map.of("number",
                8001)))));
        assertThat(spec.targetPorts()).containsExactly(8000, 8001);
        assertThat(spec.selector().matches(Map.of("app", "vllm"))).isTrue();
        assertThat(spec.spokenByHoming()).isTrue();
        assertThat(InferencePoolSpec.of(pool(Map.of("selector", Map.of("matchLabels", Map.of("app", "vllm")),
                "targetPorts", List.of(Map.of("number", 8000)), "appProtocol", "kubernetes.io/h2c")))
                .spokenByHoming()).isFalse();
        assertThatThrownBy(() -> InferencePoolSpec.of(pool(Map.of("targetPorts", List.of(Map.of("number", 8000))))))
                .hasMessage("spec.selector.matchLabels is missing or empty");
        assertThatThrownBy(() -> InferencePoolSpec.of(pool(Map.of("selector", Map.of("matchLabels",
                Map.of("app", "vllm")), "targetPorts", List.of(Map.of("number", 0))))))
                .hasMessageContaining("has no port number from 1 to 65535");
    }

    @Test
    void thePoolFlagsAreReadAsLlmdReadsThem() {
        KubernetesPool named = KubernetesPool.inferencePool(null, "qwen", null, Map.of("NAMESPACE", "llm"));
        assertThat(named.namespace()).isEqualTo("llm");
        assertThat(named.leaseName()).isEqualTo("epp-llm-qwen.llm-d.ai");
        assertThat(KubernetesPool.inferencePool(null, "qwen", KubernetesPool.GROUP, Map.of()).namespace())
                .isEqualTo("default");
        assertThatThrownBy(() -> KubernetesPool.inferencePool("llm", "qwen", "inference.networking.x-k8s.io",
                Map.of())).hasMessageContaining("Homing reads InferencePool inference.networking.k8s.io/v1 only");
        KubernetesPool standalone = KubernetesPool.standalone("llm", "app=vllm", "8000,8001,8000",
                Map.of("POD_NAME", "qwen-epp-5f7d9c8b4-x2x7k"));
        assertThat(standalone.targetPorts()).containsExactly(8000, 8001);
        assertThat(standalone.name()).as("the Deployment's name, from the pod's").isEqualTo("qwen-epp");
        assertThatThrownBy(() -> KubernetesPool.standalone("llm", "app=vllm", "80a", Map.of()))
                .hasMessage("--endpoint-target-ports: '80a' is not a port number");
        assertThatThrownBy(() -> KubernetesPool.standalone("llm", "app=vllm", "1,2,3,4,5,6,7,8,9", Map.of()))
                .hasMessage("--endpoint-target-ports: at most 8 ports, got 9");
        assertThatThrownBy(() -> KubernetesPool.standalone("llm", " ", "8000", Map.of()))
                .hasMessageContaining("--endpoint-selector must not be empty");
    }

    private static GenericKubernetesResource pool(Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.k8s.io/v1")
                .withKind("InferencePool").withNewMetadata().withName("qwen").endMetadata()
                .addToAdditionalProperties("spec", spec).build();
    }

    private static Pod pod(String name, String ip, String ready, Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewStatus().withPodIP(ip).addNewCondition().withType("Ready").withStatus(ready).endCondition()
                .endStatus().build();
    }
}
