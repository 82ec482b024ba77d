package dev.homing.sim.engine;

import static dev.homing.sim.engine.Engines.config;
import static dev.homing.sim.engine.Engines.engine;
import static dev.homing.sim.engine.Engines.prompt;
import static dev.homing.sim.engine.Engines.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RealTimeEngineDriverTest {

    private static final long MS = 1_000_000L;

    /** Observers are called on the driver thread; tests read them from theirs. */
    private static final class SyncObserver implements RequestObserver {
        final RecordingObserver inner = new RecordingObserver();

        @Override
        public synchronized void onFirstToken(long nanos) {
            inner.onFirstToken(nanos);
        }

        @Override
        public synchronized void onToken(int tokenId, boolean last, long nanos) {
            inner.onToken(tokenId, last, nanos);
        }

        @Override
        public synchronized void onFinish(FinishReason reason, Usage usage, long nanos) {
            inner.onFinish(reason, usage, nanos);
        }

        synchronized boolean finished() {
            return inner.finished();
        }

        synchronized List<Long> tokenNanos() {
            return List.copyOf(inner.tokenNanos);
        }
    }

    @Test
    void deliversOnTheModelTimelineWhateverTheWakeUps() {
        AtomicLong clock = new AtomicLong();
        // 1 ms step overhead + 10 ms floor per step.
        try (RealTimeEngineDriver driver = new RealTimeEngineDriver(engine(config(1000)), clock::get, "test-engine")
                .start()) {
            SyncObserver o = new SyncObserver();
            driver.submit(request("r", prompt(32, 1), 3), o);

            clock.set(5 * MS); // mid-step: nothing can be delivered yet
            assertThat(driver.stats().generationTokens()).isZero();

            clock.set(1000 * MS);
            await().atMost(Duration.ofSeconds(10)).until(o::finished);
            assertThat(o.tokenNanos()).containsExactly(11 * MS, 22 * MS, 33 * MS);
        }
    }

    @Test
    void servesConcurrentSubmittersOnTheRealClock() throws Exception {
        List<SyncObserver> all = Collections.synchronizedList(new ArrayList<>());
        EngineConfig fast = config(1000).withCost(CostModel.simple(0, 1_000, 200_000, 0));
        try (RealTimeEngineDriver driver = new RealTimeEngineDriver(engine(fast), System::nanoTime, "test-engine")
                .start(); ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int t = 0; t < 4; t++) {
                int thread = t;
                pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        SyncObserver o = new SyncObserver();
                        all.add(o);
                        driver.submit(request("t" + thread + "-" + i, prompt(40, thread * 100 + i), 20), o);
                    }
                });
            }
            pool.shutdown();
            await().atMost(Duration.ofSeconds(20)).until(() -> all.size() == 40
                    && all.stream().allMatch(SyncObserver::finished));
            assertThat(driver.stats().generationTokens()).isEqualTo(800);
            assertThat(driver.stats().usedBlocks()).isZero();
        }
    }

    @Test
    void abortAndCloseStopWork() {
        AtomicLong clock = new AtomicLong();
        RealTimeEngineDriver driver = new RealTimeEngineDriver(engine(config(1000)), clock::get, "test-engine")
                .start();
        SyncObserver o = new SyncObserver();
        RequestHandle h = driver.submit(request("r", prompt(32, 1), 1000), o);
        clock.set(100 * MS);
        await().atMost(Duration.ofSeconds(10)).until(() -> o.tokenNanos().size() >= 5);

        assertThat(driver.abort(h)).isTrue();
        assertThat(o.finished()).isTrue();
        assertThat(driver.stats().running()).isZero();
        assertThat(driver.stats().usedBlocks()).isZero();

        driver.close();
        assertThatThrownBy(() -> driver.submit(request("late", prompt(8, 2), 1), RequestObserver.NONE))
                .isInstanceOf(IllegalStateException.class);
        assertThat(driver.abort(h)).isFalse();
    }
}
