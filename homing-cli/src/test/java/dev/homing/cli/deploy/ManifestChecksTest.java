package dev.homing.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.InputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The checks KustomizeOverlaysIT relies on catch what they are there to catch. */
class ManifestChecksTest {

    static CrdSchema pool;

    @BeforeAll
    static void load() throws Exception {
        try (InputStream in = ManifestChecksTest.class.getResourceAsStream("inference.networking.k8s.io_inferencepools.yaml")) {
            pool = CrdSchema.of(Manifests.SERIALIZATION.unmarshal(in, CustomResourceDefinition.class), "v1");
        }
    }

    private static final String GOOD_POOL = """
            {"apiVersion": "inference.networking.k8s.io/v1", "kind": "InferencePool",
             "metadata": {"name": "p", "namespace": "n"},
             "spec": {"selector": {"matchLabels": {"app": "vllm"}}, "targetPorts": [{"number": 8000}],
                      "endpointPickerRef": {"kind": "Service", "name": "epp", "port": {"number": 9002},
                                            "failureMode": "FailClose"}}}
            """;

    @Test
    void aValidInferencePoolPasses() throws Exception {
        assertThat(pool.violations(new ObjectMapper().readTree(GOOD_POOL))).isEmpty();
    }

    @Test
    void anInferencePoolOutsideTheSchemaIsNamedWithItsPath() throws Exception {
        String bad = GOOD_POOL
                .replace("\"number\": 8000", "\"number\": 70000")
                .replace("\"failureMode\": \"FailClose\"", "\"failureMode\": \"FailSometimes\", \"extra\": 1")
                .replace("\"matchLabels\": {\"app\": \"vllm\"}", "\"matchLabels\": {\"app\": \"-bad-\"}");
        assertThat(pool.violations(new ObjectMapper().readTree(bad))).containsExactlyInAnyOrder(
                ".spec.endpointPickerRef.failureMode: \"FailSometimes\" is none of [\"FailOpen\", \"FailClose\"]",
                ".spec.endpointPickerRef.extra: unknown field",
                ".spec.selector.matchLabels.app: '-bad-' does not match ^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
                ".spec.targetPorts[0].number: 70000.0 is above 65535.0");
    }

    @Test
    void anInferencePoolWithoutWhatV1RequiresIsRefused() throws Exception {
        String old = """
                {"apiVersion": "inference.networking.x-k8s.io/v1alpha2", "kind": "InferencePool",
                 "metadata": {"name": "p"},
                 "spec": {"selector": {"app": "vllm"}, "targetPortNumber": 8000, "extensionRef": {"name": "epp"}}}
                """;
        assertThat(pool.violations(new ObjectMapper().readTree(old))).contains(
                ".spec: endpointPickerRef is required", ".spec: targetPorts is required",
                ".spec.targetPortNumber: unknown field", ".spec.extensionRef: unknown field",
                ".apiVersion: inference.networking.x-k8s.io/v1alpha2, not inference.networking.k8s.io/v1");
    }

    @Test
    void aMisspeltOrMisplacedFieldInATypedObjectIsFound() {
        Manifests m = Manifests.parse("test", """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: d
                spec:
                  replica: 2
                  selector:
                    matchLabels: {app: x}
                  template:
                    metadata:
                      labels: {app: x}
                    spec:
                      containers:
                      - name: c
                        image: i
                        readinessProbe:
                          grpc: {port: 9003, servce: readiness}
                """);
        assertThat(m.objects()).singleElement().isInstanceOf(Deployment.class);
        assertThat(m.unknownFields()).containsExactlyInAnyOrder(
                "Deployment/d.spec: unknown [replica]",
                "Deployment/d.spec.template.spec.containers[0].readinessProbe.grpc: unknown [servce]");
    }
}
