package dev.homing.router.precise.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A pod's writes waiting for Redis: in order, a clear making what came before it moot, bounded over all pods. */
class BacklogTest {

    private final AtomicLong shared = new AtomicLong();

    private static IndexWrites writes(int holds) {
        IndexWrites w = new IndexWrites("ns:", 100, 1000);
        for (int i = 0; i < holds; i++) {
            w.hold("pod-0", "gpu", i, 0);
        }
        return w;
    }

    @Test
    void stepsComeOutInOrderAndTheirArgumentsAreCountedWhileTheyWait() {
        Backlog b = new Backlog(shared, 1000);
        IndexWrites first = writes(2);
        IndexWrites second = writes(1);
        b.add(first);
        b.add(second);
        assertThat(shared.get()).isEqualTo(first.args().size() + second.args().size());
        assertThat(b.peek()).isSameAs(first);
        b.remove();
        assertThat(b.peek()).isSameAs(second);
        b.remove();
        assertThat(b.isEmpty()).isTrue();
        assertThat(shared.get()).isZero();
    }

    @Test
    void aClearDropsWhatCameBeforeIt() {
        Backlog b = new Backlog(shared, 1000);
        b.add(writes(3));
        b.add(Backlog.CLEAR);
        IndexWrites after = writes(1);
        b.add(after);
        assertThat(b.peek()).isSameAs(Backlog.CLEAR);
        b.remove();
        assertThat(b.peek()).isSameAs(after);
        assertThat(shared.get()).isEqualTo(after.args().size());
    }

    @Test
    void pastTheSharedBoundThePodsBacklogIsDroppedAndMarkedForAClearInRedis() {
        Backlog other = new Backlog(shared, 60);
        other.add(writes(4)); // 3 + 4 x 5 = 23 arguments
        Backlog b = new Backlog(shared, 60);
        b.add(writes(4));
        b.add(writes(4)); // 69 > 60
        assertThat(b.overflowed()).isTrue();
        assertThat(b.peek()).isNull();
        assertThat(b.isEmpty()).as("Redis's copy of the pod is still to be cleared").isFalse();
        assertThat(shared.get()).as("only the other pod's").isEqualTo(23);
        IndexWrites later = writes(1);
        b.add(later);
        assertThat(b.peek()).as("what follows is kept, to send after the clear").isSameAs(later);
        b.clearedRemotely();
        assertThat(b.overflowed()).isFalse();
        b.add(Backlog.CLEAR);
        assertThat(b.peek()).isSameAs(Backlog.CLEAR);
    }
}
