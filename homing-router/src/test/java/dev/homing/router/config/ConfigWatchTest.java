package dev.homing.router.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Closing the watch does not leave a reload running while the parts it uses close after it. */
class ConfigWatchTest {

    @Test
    void closeWaitsForAReloadInProgress() throws Exception {
        CountDownLatch reloading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean reloaded = new AtomicBoolean();
        // A reload that does not heed the interrupt of shutdownNow (building a plugin, say) until it is released.
        ConfigWatch watch = new ConfigWatch(Duration.ofMillis(1), () -> {
            reloading.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            reloaded.set(true);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        watch.start();
        reloading.await();

        AtomicBoolean reloadedWhenClosed = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            watch.close();
            reloadedWhenClosed.set(reloaded.get());
        });
        // Either close waits for the reload (the closer parks), or it has returned already (the bug).
        await().atMost(Duration.ofSeconds(10)).until(() -> closer.getState() == Thread.State.TIMED_WAITING
                || closer.getState() == Thread.State.TERMINATED);
        release.countDown();
        closer.join();

        assertThat(reloadedWhenClosed).as("close returned only once the reload had ended").isTrue();
    }
}
