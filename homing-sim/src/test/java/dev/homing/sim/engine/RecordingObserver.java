package dev.homing.sim.engine;

import java.util.ArrayList;
import java.util.List;

/** Test fixture: remembers everything one request heard from the engine. */
public final class RecordingObserver implements RequestObserver {

    public final List<Integer> tokens = new ArrayList<>();
    public final List<Long> tokenNanos = new ArrayList<>();
    public long firstTokenNanos = -1;
    public FinishReason reason;
    public Usage usage;
    public long finishNanos = -1;
    public int finishCalls;
    public boolean lastFlagOnFinalToken;
    public final List<Long> scheduled = new ArrayList<>();

    @Override
    public void onScheduled(long nanos) {
        scheduled.add(nanos);
    }

    @Override
    public void onFirstToken(long nanos) {
        if (firstTokenNanos != -1) {
            throw new AssertionError("onFirstToken twice");
        }
        firstTokenNanos = nanos;
    }

    @Override
    public void onToken(int tokenId, boolean last, long nanos) {
        if (reason != null) {
            throw new AssertionError("token after finish");
        }
        tokens.add(tokenId);
        tokenNanos.add(nanos);
        lastFlagOnFinalToken = last;
    }

    @Override
    public void onFinish(FinishReason reason, Usage usage, long nanos) {
        this.reason = reason;
        this.usage = usage;
        this.finishNanos = nanos;
        finishCalls++;
    }

    public boolean finished() {
        return reason != null;
    }

    /** Mean gap between consecutive tokens. */
    public double meanInterTokenNanos() {
        if (tokenNanos.size() < 2) {
            throw new AssertionError("fewer than two tokens");
        }
        return (double) (tokenNanos.getLast() - tokenNanos.getFirst()) / (tokenNanos.size() - 1);
    }
}
