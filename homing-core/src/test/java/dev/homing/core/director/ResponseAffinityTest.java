package dev.homing.core.director;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseAffinityTest {

    private static final Predicate<String> IN_POOL = e -> true;

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {1, 3, 100})
    void holdsAtMostItsCapacityDroppingTheLeastRecentlyUsed(int capacity) {
        ResponseAffinity a = new ResponseAffinity(capacity);
        for (int i = 0; i < capacity * 5; i++) {
            a.remember("resp_" + i, "pod-" + (i % 3), IN_POOL);
            assertThat(a.size()).isLessThanOrEqualTo(capacity);
        }
        assertThat(a.size()).isEqualTo(capacity);
        assertThat(a.evicted()).isEqualTo(capacity * 4L);
        assertThat(a.endpointOf("resp_0")).isNull();
        int last = capacity * 5 - 1;
        assertThat(a.endpointOf("resp_" + last)).isEqualTo("pod-" + (last % 3));
    }

    @Test
    void aLookupKeepsALiveConversationFromBeingEvicted() {
        ResponseAffinity a = new ResponseAffinity(2);
        a.remember("resp_a", "pod-0", IN_POOL);
        a.remember("resp_b", "pod-1", IN_POOL);
        assertThat(a.endpointOf("resp_a")).isEqualTo("pod-0"); // a follow-up names resp_a: it is the most recent now
        a.remember("resp_c", "pod-2", IN_POOL);
        assertThat(a.endpointOf("resp_b")).isNull();
        assertThat(a.endpointOf("resp_a")).isEqualTo("pod-0");
        assertThat(a.endpointOf("resp_c")).isEqualTo("pod-2");
    }

    @Test
    void aPeekLeavesTheOrderAlone() {
        ResponseAffinity a = new ResponseAffinity(2);
        a.remember("resp_a", "pod-0", IN_POOL);
        a.remember("resp_b", "pod-1", IN_POOL);
        assertThat(a.peek("resp_a")).isEqualTo("pod-0");
        a.remember("resp_c", "pod-2", IN_POOL);
        assertThat(a.peek("resp_a")).isNull();
        assertThat(a.peek("resp_b")).isEqualTo("pod-1");
    }

    @Test
    void rememberingAKnownIdAgainMakesItTheMostRecent() {
        ResponseAffinity a = new ResponseAffinity(2);
        a.remember("resp_a", "pod-0", IN_POOL);
        a.remember("resp_b", "pod-1", IN_POOL);
        a.remember("resp_a", "pod-0", IN_POOL);
        a.remember("resp_c", "pod-2", IN_POOL);
        assertThat(a.peek("resp_b")).isNull();
        assertThat(a.peek("resp_a")).isEqualTo("pod-0");
    }

    @Test
    void anIdLearntAfterItsEndpointLeftThePoolIsNotKept() {
        ResponseAffinity a = new ResponseAffinity(10);
        a.remember("resp_a", "pod-0", e -> !e.equals("pod-0"));
        assertThat(a.size()).isZero();
        assertThat(a.learnt()).isZero();
        assertThat(a.endpointOf("resp_a")).isNull();
    }

    @Test
    void anEndpointThatLeavesTakesItsResponsesWithIt() {
        ResponseAffinity a = new ResponseAffinity(10);
        a.remember("resp_a", "pod-0", IN_POOL);
        a.remember("resp_b", "pod-1", IN_POOL);
        a.remember("resp_c", "pod-0", IN_POOL);
        a.forgetEndpoint("pod-0");
        assertThat(a.size()).isEqualTo(1);
        assertThat(a.endpointOf("resp_a")).isNull();
        assertThat(a.endpointOf("resp_b")).isEqualTo("pod-1");
    }

    @Test
    void nothingIsLearntFromNoId() {
        ResponseAffinity a = new ResponseAffinity(10);
        a.remember(null, "pod-0", IN_POOL);
        a.remember("", "pod-0", IN_POOL);
        assertThat(a.size()).isZero();
        assertThat(a.learnt()).isZero();
    }

    @Test
    void theCapacityMustBePositive() {
        assertThatThrownBy(() -> new ResponseAffinity(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
