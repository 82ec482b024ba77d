package dev.homing.router.precise.events;

import dev.homing.core.precise.PreciseIndex;
import dev.homing.protocol.kvevents.KvCacheEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Applies events to a precise index on {@code concurrency} threads, as llm-d's {@code kvevents.Pool}: a pod always goes
 * to the same worker (by a hash of its name), so its events are applied in the order they were handed over, while
 * different pods proceed in parallel. Each worker's queue is bounded; a full one makes the subscriber wait, and the
 * publisher's socket then buffers and, past its high-water mark, drops, which the sequence numbers reveal.
 */
final class IndexWorkers implements EventSink, AutoCloseable {

    private static final int QUEUE = 4096;

    private final PreciseIndex index;
    private final KvEventsObserver observer;
    private final List<BlockingQueue<Runnable>> queues = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    IndexWorkers(PreciseIndex index, int concurrency, KvEventsObserver observer, String name) {
        this.index = index;
        this.observer = observer;
        for (int i = 0; i < concurrency; i++) {
            BlockingQueue<Runnable> q = new ArrayBlockingQueue<>(QUEUE);
            queues.add(q);
            threads.add(Thread.ofPlatform().daemon().name("homing-kv-apply-" + name + "-" + i).start(() -> work(q)));
        }
    }

    @Override
    public void apply(String pod, List<KvCacheEvent> events) {
        submit(pod, () -> {
            int skipped = index.apply(pod, events);
            observer.eventsApplied(pod, events.size() - skipped);
            if (skipped > 0) {
                observer.eventsSkipped("unresolved", skipped);
            }
        });
    }

    @Override
    public void clear(String pod) {
        submit(pod, () -> index.clear(pod));
    }

    /** Forgets a pod that left the pool, after whatever of its events is still queued. */
    void remove(String pod) {
        submit(pod, () -> index.removePod(pod));
    }

    private void submit(String pod, Runnable task) {
        BlockingQueue<Runnable> q = queues.get(Math.floorMod(fnv1a(pod), queues.size()));
        try {
            while (running && !q.offer(task, 100, TimeUnit.MILLISECONDS)) {
                // the worker is behind: wait, the publisher's socket buffers meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void work(BlockingQueue<Runnable> q) {
        while (running) {
            Runnable task;
            try {
                task = q.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (task == null) {
                continue;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                System.getLogger(IndexWorkers.class.getName()).log(System.Logger.Level.WARNING,
                        "applying KV events failed", e);
            }
        }
    }

    /** llm-d shards by FNV-1a of the pod id; any stable hash keeps a pod's order, this one spreads names well. */
    private static int fnv1a(String s) {
        int h = 0x811c9dc5;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x01000193;
        }
        return h;
    }

    /** Stops the workers; what is still queued is dropped (the index's producer is going away). */
    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
