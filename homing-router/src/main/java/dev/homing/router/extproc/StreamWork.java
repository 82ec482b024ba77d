package dev.homing.router.extproc;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One stream's work, in order. Most of it is a few microseconds (a body chunk gathered, a response chunk echoed) and
 * runs on the transport thread that delivered it: handing every message to another thread would cost more than the
 * work. The decision is different: a policy may wait on I/O before deciding (the precise producer asks a pod for
 * tokens, or Redis for the index), and the transport thread serves many streams. So a task can say that the rest of
 * it runs on a thread that may wait ({@link #continueOffThread}); whatever the stream delivers meanwhile waits for it,
 * and runs there after it, in order. No two pieces of one stream's work ever run at once.
 */
final class StreamWork {

    private static final System.Logger LOG = System.getLogger(StreamWork.class.getName());

    private final Executor mayWait;
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private boolean busy; // guarded by this: a task runs (inline or off-thread); later ones queue
    private Runnable offThread; // set by the running task only

    /** Whether work is under way (for tests: what is submitted now would queue). */
    synchronized boolean busy() {
        return busy;
    }

    /** @param mayWait threads that may block (virtual threads) */
    StreamWork(Executor mayWait) {
        this.mayWait = mayWait;
    }

    /** Runs {@code task} now, on this thread, or after the stream's work already under way. */
    void submit(Runnable task) {
        synchronized (this) {
            if (busy) {
                pending.add(task);
                return;
            }
            busy = true;
        }
        runFrom(task);
    }

    /**
     * From within a running task: {@code rest} runs once it returns, on a thread that may wait, and the stream's later
     * work after it.
     */
    void continueOffThread(Runnable rest) {
        offThread = rest;
    }

    private void runFrom(Runnable first) {
        Runnable next = first;
        while (true) {
            try {
                next.run();
            } catch (RuntimeException | Error e) { // a task handles its own; this keeps the stream's work going
                LOG.log(System.Logger.Level.WARNING, "ext_proc stream task failed", e);
            }
            Runnable rest = offThread;
            if (rest != null) {
                offThread = null;
                try {
                    mayWait.execute(() -> runFrom(rest));
                    return; // still busy: the rest, then the queue, run there
                } catch (RejectedExecutionException e) { // shutting down: finish here
                    next = rest;
                    continue;
                }
            }
            synchronized (this) {
                next = pending.poll();
                if (next == null) {
                    busy = false;
                    return;
                }
            }
        }
    }
}
