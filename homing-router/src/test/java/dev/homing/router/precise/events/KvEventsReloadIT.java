package dev.homing.router.precise.events;

import static dev.homing.router.fixtures.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.DefaultConfig;
import dev.homing.core.precise.KvEventFeed;
import dev.homing.router.fixtures.AtomicWrite;
import dev.homing.router.fixtures.Decisions;
import dev.homing.router.fixtures.PodTokenizer;
import dev.homing.router.fixtures.TestCluster;
import dev.homing.sim.kvevents.KvEventsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subscribers follow config reloads: none without a precise producer, one when a reload brings it, a new one (with a
 * new, empty index, filled from the pods' replay buffers) when its parameters change, none again when it goes.
 */
class KvEventsReloadIT {

    private static final String MODEL = TestCluster.MODEL;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String APPROXIMATE = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            plugins:
            - type: prefix-cache-scorer
            - type: queue-scorer
            """;

    @TempDir
    Path dir;

    @Test
    void reloadsStartRewireAndStopTheSubscribers() throws Exception {
        Path file = AtomicWrite.replace(dir.resolve("epp.yaml"), APPROXIMATE);
        AtomicInteger n = new AtomicInteger();
        try (TestCluster c = TestCluster.start(2,
                pod -> pod.kvEvents(KvEventsConfig.zmq("tcp://127.0.0.1:*").withReplayEndpoint("tcp://127.0.0.1:*")
                        .withTopic("kv@pod-" + n.getAndIncrement() + "@" + MODEL)),
                (options, pods) -> options.with(o -> {
                    o.configFile = file;
                    o.configPollInterval = Duration.ofMillis(100);
                    o.tokenSource = new PodTokenizer(() -> pods.getFirst().baseUrl());
                }))) {
            assertThat(c.router().kvEvents().producers()).isEmpty();

            AtomicWrite.replace(file, DefaultConfig.preciseText());
            await().atMost(WAIT).until(() -> c.router().kvEvents().producers()
                    .equals(List.of("precise-prefix-cache-producer")));
            c.awaitKvEvents();
            String prompt = "Notes on the migration of eels, which is longer than anyone expects. ".repeat(4);
            int blocks = json(c.http().post(c.podUrl(0, "/tokenize"), body(prompt))).path("count").asInt() / 16;
            String pod = c.http().post(c.url("/v1/completions"), body(prompt)).headers().firstValue("x-homing-pod")
                    .orElseThrow();
            await().atMost(WAIT).until(() -> matched(c, prompt).get(pod) == blocks);

            // Another concurrency: a new producer, a new empty index, a new subscription.
            KvEventFeed before = c.router().config().pluginsOf(KvEventFeed.class)
                    .getFirst();
            AtomicWrite.replace(file, DefaultConfig.preciseText().replace("concurrency: 4", "concurrency: 2"));
            await().atMost(WAIT).until(() -> c.router().config().pluginsOf(KvEventFeed.class)
                    .getFirst() != before);
            assertThat(c.router().kvEvents().producers()).containsExactly("precise-prefix-cache-producer");
            // the director takes the new policy just after the config is swapped
            await().atMost(WAIT).until(() -> matched(c, prompt).get(pod) == 0);
            // The pod's next batch is the new subscription's first, past 0: the start is filled from its replay socket.
            // A PUB socket drops what it sends before the new subscription has connected, so nudge until one lands.
            int i = Integer.parseInt(pod.substring("pod-".length()));
            AtomicInteger nudges = new AtomicInteger();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                String nudge = "Something else to say, take " + nudges.incrementAndGet() + ". ";
                assertThat(c.http().post(c.podUrl(i, "/v1/completions"), body(nudge.repeat(3))).statusCode())
                        .isEqualTo(200);
                return matched(c, prompt).get(pod) == blocks;
            });

            AtomicWrite.replace(file, APPROXIMATE);
            await().atMost(WAIT).until(() -> c.router().kvEvents().producers().isEmpty());
        }
    }

    private static String body(String prompt) {
        return "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":2}";
    }

    private static Map<String, Integer> matched(TestCluster c, String prompt) {
        return Decisions.matchedBlocks(json(c.http().post(c.adminUrl("/debug/schedule"), body(prompt))));
    }
}
