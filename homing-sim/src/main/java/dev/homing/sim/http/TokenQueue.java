package dev.homing.sim.http;

import dev.homing.sim.engine.FinishReason;
import dev.homing.sim.engine.RequestObserver;
import dev.homing.sim.engine.Usage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Hands one request's output from the engine thread to the HTTP thread writing the response. The last token travels
 * with the finish, so the writer can put the finish reason on that token's own chunk, as vLLM does.
 */
final class TokenQueue implements RequestObserver {

    sealed interface Event permits Token, Finished {
    }

    record Token(int id) implements Event {
    }

    /** @param lastToken the token that ended the request, or -1 (an abort) */
    record Finished(int lastToken, FinishReason reason, Usage usage) implements Event {
    }

    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private int lastToken = -1;

    @Override
    public void onToken(int tokenId, boolean last, long nanos) {
        if (last) {
            lastToken = tokenId;
        } else {
            events.add(new Token(tokenId));
        }
    }

    @Override
    public void onFinish(FinishReason reason, Usage usage, long nanos) {
        events.add(new Finished(lastToken, reason, usage));
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
