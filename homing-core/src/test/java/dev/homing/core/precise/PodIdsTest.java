package dev.homing.core.precise;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodIdsTest {

    @Test
    void aFreedIdIsHandedOutBeforeANewOne() {
        PodIds pods = new PodIds();
        for (int i = 0; i < 3; i++) {
            pods.getOrAdd("pod-" + i);
        }
        int freed = pods.get("pod-1").id;
        pods.remove("pod-1");
        assertThat(pods.get("pod-1")).isNull();
        assertThat(pods.byId(freed)).isNull();

        Pod next = pods.getOrAdd("pod-3");
        assertThat(next.id).isEqualTo(freed);
        assertThat(pods.byId(freed)).isSameAs(next);
        assertThat(pods.ids()).isEqualTo(3);
        assertThat(pods.getOrAdd("pod-4").id).as("no id free: a new one").isEqualTo(3);
    }

    @Test
    void bitsetsOverPodIdsDoNotGrowWithPodsJoiningAndLeaving() {
        PodIds pods = new PodIds();
        for (int i = 0; i < 64; i++) {
            pods.getOrAdd("pod-" + i);
        }
        assertThat(pods.words()).isEqualTo(1);
        // a rolling restart, over and over: every pod leaves and a new one (a new name) takes its place, a few at once
        int next = 64;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 8; i++) {
                pods.remove("pod-" + (next - 64 + i));
            }
            for (int i = 0; i < 8; i++) {
                pods.getOrAdd("pod-" + next++);
            }
            assertThat(pods.words()).isEqualTo(1);
            assertThat(pods.ids()).isEqualTo(64);
        }
        assertThat(pods.getOrAdd("pod-" + next).id).as("a 65th pod at once needs a second word").isEqualTo(64);
        assertThat(pods.words()).isEqualTo(2);
    }
}
