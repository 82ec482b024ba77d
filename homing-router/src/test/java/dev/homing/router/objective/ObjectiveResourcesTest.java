package dev.homing.router.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The objectives file: resources as kubectl applies them, errors naming their line. */
class ObjectiveResourcesTest {

    static final String FILE = """
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceObjective
            metadata:
              name: critical
              namespace: default
              labels: {team: a}
            spec:
              priority: 10
              poolRef:
                name: my-pool
            ---
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceObjective
            metadata: {name: batch}
            spec: {priority: -1, poolRef: {name: my-pool}}
            ---
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceObjective
            metadata: {name: plain}
            spec: {poolRef: {name: my-pool}}
            ---
            apiVersion: inference.networking.x-k8s.io/v1alpha2
            kind: InferenceModelRewrite
            metadata: {name: food-review-canary}
            spec:
              poolRef: {group: inference.networking.k8s.io, kind: InferencePool, name: my-pool}
              rules:
              - matches:
                - model: {type: Exact, value: food-review}
                targets:
                - {modelRewrite: food-review-v1, weight: 1}
              - targets:
                - modelRewrite: everything-else
            """;

    @Test
    void objectivesAndRewritesOfOneFile() throws ConfigException {
        Objectives o = ObjectiveResources.parseFile("objectives.yaml", FILE);
        assertThat(o.priority("critical")).isEqualTo(10);
        assertThat(o.priority("batch")).isEqualTo(-1);
        assertThat(o.priority("plain")).isZero();
        assertThat(o.priority("unknown")).isZero();
        SplittableRandom r = new SplittableRandom(1);
        assertThat(o.rewrite("food-review", r))
                .isEqualTo(new RewriteDecision("food-review-canary", "food-review", "food-review-v1"));
        assertThat(o.rewrite("other", r).target()).isEqualTo("everything-else");
    }

    @Test
    void errorsNameTheLine() {
        assertThatThrownBy(() -> ObjectiveResources.parseFile("o.yaml", FILE.replace("weight: 1", "weight: 0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("o.yaml").hasMessageContaining(":31")
                .hasMessageContaining("weight");
        assertThatThrownBy(() -> ObjectiveResources.parseFile("o.yaml", FILE.replace("priority: 10", "priorty: 10")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(":8").hasMessageContaining("priorty");
        assertThatThrownBy(() -> ObjectiveResources.parseFile("o.yaml", FILE.replace("type: Exact", "type: Prefix")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("Exact");
        assertThatThrownBy(() -> ObjectiveResources.parseFile("o.yaml", FILE.replace("x-k8s.io/v1alpha2\nkind: "
                + "InferenceModelRewrite", "x-k8s.io/v1\nkind: InferenceModelRewrite")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(":22");
        assertThatThrownBy(() -> ObjectiveResources.parseFile("o.yaml", FILE + "---\n" + FILE.split("---\n")[0]))
                .isInstanceOf(ConfigException.class).hasMessageContaining("already defined at line 1");
    }

    @Test
    void anObjectAsTheApiServerGivesItIsReadWithItsPoolReference() throws ConfigException {
        ObjectiveResources.Resource r = ObjectiveResources.fromJson("InferenceModelRewrite llm/canary", """
                {"apiVersion":"inference.networking.x-k8s.io/v1alpha2","kind":"InferenceModelRewrite",
                 "metadata":{"name":"canary","namespace":"llm","creationTimestamp":"2025-01-01T00:00:00Z",
                  "managedFields":[{"manager":"kubectl"}],"resourceVersion":"7"},
                 "spec":{"poolRef":{"group":"inference.networking.k8s.io","kind":"InferencePool","name":"qwen"},
                  "rules":[{"targets":[{"modelRewrite":"v2","weight":1}]}]},
                 "status":{"conditions":[]}}""");
        assertThat(r.kind()).isEqualTo(ObjectiveResources.REWRITE);
        assertThat(r.name()).isEqualTo("canary");
        assertThat(r.pool()).isEqualTo("qwen");
        assertThat(r.poolGroup()).isEqualTo("inference.networking.k8s.io");
        assertThat(r.poolKind()).isEqualTo("InferencePool");
        ObjectiveResources.Resource o = ObjectiveResources.fromJson("InferenceObjective llm/batch", """
                {"apiVersion":"inference.networking.x-k8s.io/v1alpha2","kind":"InferenceObjective",
                 "metadata":{"name":"batch"},"spec":{"priority":-1,"poolRef":{"name":"qwen"}}}""");
        assertThat(o.objective().priority()).isEqualTo(-1);
        assertThat(o.poolGroup()).as("not given: the CRD's default applies").isNull();
        assertThat(o.poolKind()).isNull();
    }
}
