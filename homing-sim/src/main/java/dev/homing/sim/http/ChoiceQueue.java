package dev.homing.sim.http;

import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.Usage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Hands one HTTP request's output from the engine thread to the thread writing the response: the events of all its
 * choices (one engine request each) in the order the engine produced them. The last token of a choice travels with
 * its finish, so the writer can put the finish reason on that token's own chunk, as vLLM does.
 */
final class ChoiceQueue {

    sealed interface Event permits Token, Finished {
        int choice();
    }

    record Token(int choice, int id) implements Event {
    }

    /** @param lastToken the token that ended the choice, or -1 (an abort) */
    record Finished(int choice, int lastToken, FinishReason reason, Usage usage) implements Event {
    }

    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();

    /** The observer of choice {@code index}. */
    RequestObserver observer(int index) {
        return new RequestObserver() {
            private int lastToken = -1;

            @Override
            public void onToken(int tokenId, boolean last, long nanos) {
                if (last) {
                    lastToken = tokenId;
                } else {
                    events.add(new Token(index, tokenId));
                }
            }

            @Override
            public void onFinish(FinishReason reason, Usage usage, long nanos) {
                events.add(new Finished(index, lastToken, reason, usage));
            }
        };
    }

    /**
     * The next event; waits for it, checking {@code stopped} every second so a closing pod does not strand a thread.
     *
     * @throws InterruptedException if interrupted, or when {@code stopped} turns true first
     */
    Event next(BooleanSupplier stopped) throws InterruptedException {
        while (true) {
            Event e = events.poll(1, TimeUnit.SECONDS);
            if (e != null) {
                return e;
            }
            if (stopped.getAsBoolean()) {
                throw new InterruptedException("the pod is closing");
            }
        }
    }
}
