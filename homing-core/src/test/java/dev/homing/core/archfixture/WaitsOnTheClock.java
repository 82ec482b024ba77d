package dev.homing.core.archfixture;

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/** Breaks "no waits on the wall clock": sleeps, timed waits, and a Timer (its tasks wait for the wall clock). */
public final class WaitsOnTheClock {

    void sleep() throws InterruptedException {
        Thread.sleep(10);
    }

    void unitSleep() throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(10);
    }

    synchronized void objectWait() throws InterruptedException {
        wait(10);
    }

    long await(Condition condition) throws InterruptedException {
        return condition.awaitNanos(10);
    }

    Object poll(BlockingQueue<Object> queue) throws InterruptedException {
        return queue.poll(10, TimeUnit.MILLISECONDS);
    }

    void later(TimerTask task) {
        new Timer().schedule(task, 10);
    }
}
