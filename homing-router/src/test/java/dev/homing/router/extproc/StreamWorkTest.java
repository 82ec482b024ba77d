package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StreamWorkTest {

    private final ExecutorService offThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "may-wait"));
    private final StreamWork work = new StreamWork(offThread);
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        offThread.shutdownNow();
    }

    @Test
    void workRunsOnTheThreadThatDeliversItWhenNothingIsUnderWay() {
        work.submit(() -> log.add("a@" + Thread.currentThread().getName()));
        work.submit(() -> log.add("b@" + Thread.currentThread().getName()));
        String me = Thread.currentThread().getName();
        assertThat(log).containsExactly("a@" + me, "b@" + me);
    }

    @Test
    void whatArrivesWhileTheDecisionWaitsRunsAfterItInOrderAndNeverAtOnce() throws Exception {
        CountDownLatch decisionStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        Runnable count = () -> {
            if (running.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
        };
        work.submit(() -> {
            log.add("body");
            work.continueOffThread(() -> {
                count.run();
                decisionStarted.countDown();
                await(release);
                log.add("decided@" + Thread.currentThread().getName());
                running.decrementAndGet();
            });
        });
        assertThat(decisionStarted.await(5, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            int n = i;
            work.submit(() -> {
                count.run();
                log.add("later " + n + "@" + Thread.currentThread().getName());
                running.decrementAndGet();
            });
        }
        assertThat(log).containsExactly("body"); // the later work waits for the decision
        release.countDown();
        awaitSize(5);
        assertThat(log).containsExactly("body", "decided@may-wait", "later 0@may-wait", "later 1@may-wait",
                "later 2@may-wait");
        assertThat(overlaps).hasValue(0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (work.busy() && System.nanoTime() < deadline) {
            Thread.sleep(5); // the off-thread runner lets go once the queue is empty
        }

        work.submit(() -> log.add("after@" + Thread.currentThread().getName()));
        assertThat(log.getLast()).isEqualTo("after@" + Thread.currentThread().getName());
    }

    @Test
    void aTaskThatFailsDoesNotStopTheStreamsWork() {
        work.submit(() -> {
            throw new IllegalStateException("boom");
        });
        work.submit(() -> log.add("still running"));
        assertThat(log).containsExactly("still running");
    }

    @Test
    void offThreadWorkRunsHereWhenThoseThreadsAreGone() {
        offThread.shutdownNow();
        work.submit(() -> work.continueOffThread(() -> log.add("rest@" + Thread.currentThread().getName())));
        assertThat(log).containsExactly("rest@" + Thread.currentThread().getName());
    }

    private void awaitSize(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (log.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
