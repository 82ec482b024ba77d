package dev.homing.sim.kvevents;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The last {@code capacity} published batches by sequence number, for replay (vLLM's {@code deque(maxlen=...)}). */
final class ReplayBuffer {

    record Entry(long seq, byte[] payload) {
    }

    private final int capacity;
    private final ArrayDeque<Entry> entries;

    ReplayBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
        this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    void add(long seq, byte[] payload) {
        if (entries.size() == capacity) {
            entries.removeFirst();
        }
        entries.addLast(new Entry(seq, payload));
    }

    /** Every kept batch with a sequence number at or after {@code start} (unsigned), oldest first. */
    List<Entry> from(long start) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries) {
            if (Long.compareUnsigned(e.seq, start) >= 0) {
                out.add(e);
            }
        }
        return out;
    }

    int size() {
        return entries.size();
    }
}
