package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.objective.ModelRewrite;
import dev.homing.core.objective.Objectives;
import dev.homing.core.objective.RewriteDecision;
import dev.homing.router.fixtures.MockApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's InferenceObjectives and InferenceModelRewrites, against fabric8's mock API server in CRUD mode: those
 * naming the pool followed are published as one snapshot after every change, those naming another pool (or the
 * pool's name in another group) are not, and rewrites are ordered oldest first.
 */
class KubernetesObjectivesIT {

    private static final Duration FOLLOWS = Duration.ofSeconds(2);
    private static final KubernetesPool QWEN = KubernetesPool.inferencePool(MockApiServer.NAMESPACE, "qwen", null,
            Map.of());

    @TempDir
    Path dir;

    @Test
    void theSnapshotFollowsThePoolsObjectivesAndRewritesAndIgnoresOtherPools() throws Exception {
        AtomicReference<Objectives> snapshot = new AtomicReference<>(null);
        AtomicInteger published = new AtomicInteger();
        try (MockApiServer api = MockApiServer.start(dir);
             KubernetesApi client = KubernetesApi.connect(api.kubeconfig())) {
            // there before the router starts: listed
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("critical", "qwen", null,
                    10)).create();
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("theirs", "llama", null,
                    5)).create();
            // llm-d compares the group: the pool's name in the alpha InferencePool group is another pool
            api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("alpha", "qwen",
                    "inference.networking.x-k8s.io", 7)).create();
            try (KubernetesObjectives watch = new KubernetesObjectives(client, QWEN, Duration.ofMinutes(10), o -> {
                snapshot.set(o);
                published.incrementAndGet();
            })) {
                watch.start();
                await().atMost(FOLLOWS).until(() -> snapshot.get() != null && snapshot.get().get("critical") != null);
                assertThat(snapshot.get().priority("critical")).isEqualTo(10);
                assertThat(snapshot.get().get("theirs")).isNull();
                assertThat(snapshot.get().get("alpha")).isNull();
                assertThat(snapshot.get().size()).isEqualTo(1);

                // added: the group given outright (the CRD's default, which an API server would have filled in)
                api.resources(KubernetesObjectives.OBJECTIVES).resource(MockApiServer.objective("batch", "qwen",
                        KubernetesPool.GROUP, -1)).create();
                await().atMost(FOLLOWS).until(() -> snapshot.get().get("batch") != null);
                assertThat(snapshot.get().priority("batch")).isEqualTo(-1);

                // rewrites: the oldest of two exact rules for one model wins, though its name sorts last; another
                // pool's rule for the same model is not the pool's
                api.resources(KubernetesObjectives.REWRITES).resource(MockApiServer.rewrite("zz-old", "qwen", "food",
                        "food-v1")).create();
                api.resources(KubernetesObjectives.REWRITES).resource(MockApiServer.rewrite("aaa-theirs", "llama",
                        "food", "food-other")).create();
                await().atMost(FOLLOWS).until(() -> target(snapshot.get(), "food") != null);
                Instant old = Instant.parse(api.resources(KubernetesObjectives.REWRITES).withName("zz-old").get()
                        .getMetadata().getCreationTimestamp());
                // creation timestamps are to the second: the newer one must be a second later to be newer
                await().atMost(Duration.ofSeconds(3)).until(() -> Instant.now().isAfter(old.plusMillis(1100)));
                api.resources(KubernetesObjectives.REWRITES).resource(MockApiServer.rewrite("aa-new", "qwen", "food",
                        "food-v2")).create();
                await().atMost(FOLLOWS).until(() -> snapshot.get().rewrites().size() == 2);
                assertThat(snapshot.get().rewrites().stream().map(ModelRewrite::name)).containsExactly("zz-old",
                        "aa-new");
                assertThat(target(snapshot.get(), "food")).isEqualTo("food-v1");

                // updated: a priority changed
                api.resources(KubernetesObjectives.OBJECTIVES).withName("critical").edit(o -> spec(o, "priority", 20));
                await().atMost(FOLLOWS).until(() -> snapshot.get().priority("critical") == 20);
                // moved to another pool: no longer ours
                api.resources(KubernetesObjectives.OBJECTIVES).withName("batch").edit(o -> spec(o, "poolRef",
                        Map.of("name", "llama")));
                await().atMost(FOLLOWS).until(() -> snapshot.get().get("batch") == null);

                // one that cannot be read (a weight the CRD refuses) is left out; the rest stay
                GenericKubernetesResource bad = MockApiServer.rewrite("bad", "qwen", "tea", "tea-v1");
                spec(bad, "rules", List.of(Map.of("targets", List.of(Map.of("modelRewrite", "x", "weight", 0)))));
                int before = published.get();
                api.resources(KubernetesObjectives.REWRITES).resource(bad).create();
                await().atMost(FOLLOWS).until(() -> published.get() > before);
                assertThat(snapshot.get().rewrites().stream().map(ModelRewrite::name)).containsExactly("zz-old",
                        "aa-new");
                assertThat(snapshot.get().priority("critical")).isEqualTo(20);

                // deleted: the oldest rule goes, the next one wins; an objective goes
                api.resources(KubernetesObjectives.REWRITES).withName("zz-old").delete();
                await().atMost(FOLLOWS).until(() -> "food-v2".equals(target(snapshot.get(), "food")));
                api.resources(KubernetesObjectives.OBJECTIVES).withName("critical").delete();
                await().atMost(FOLLOWS).until(() -> snapshot.get().get("critical") == null);
                assertThat(snapshot.get().priority("critical")).isZero();
                assertThat(snapshot.get().size()).isZero();
            }
        }
    }

    @Test
    void nothingIsPublishedUntilBothKindsAreListedAndThenAnEmptySnapshot() throws Exception {
        AtomicReference<Objectives> snapshot = new AtomicReference<>(null);
        try (MockApiServer api = MockApiServer.start(dir);
             KubernetesApi client = KubernetesApi.connect(api.kubeconfig());
             KubernetesObjectives watch = new KubernetesObjectives(client, QWEN, Duration.ofMinutes(10),
                     snapshot::set)) {
            assertThat(snapshot.get()).isNull();
            watch.start();
            await().atMost(FOLLOWS).until(() -> snapshot.get() != null);
            assertThat(snapshot.get()).isSameAs(Objectives.NONE);
        }
    }

    private static String target(Objectives o, String model) {
        RewriteDecision d = o.rewrite(model, new SplittableRandom(1));
        return d == null ? null : d.target();
    }

    @SuppressWarnings("unchecked")
    private static GenericKubernetesResource spec(GenericKubernetesResource r, String key, Object value) {
        ((Map<String, Object>) r.getAdditionalProperties().get("spec")).put(key, value);
        return r;
    }
}
