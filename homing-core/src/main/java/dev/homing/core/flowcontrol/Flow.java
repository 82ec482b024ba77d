package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.FlowQueue;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import java.util.Comparator;
import java.util.PriorityQueue;

/** One flow's queue in a band. */
final class Flow implements FlowQueue {
    final String fairnessId;
    PriorityQueue<Item> queue;
    long bytes;

    Flow(String fairnessId, Comparator<QueuedRequest> order) {
        this.fairnessId = fairnessId;
        this.queue = new PriorityQueue<>(order);
    }

    void reorder(Comparator<QueuedRequest> order) {
        PriorityQueue<Item> next = new PriorityQueue<>(Math.max(1, queue.size()), order);
        next.addAll(queue);
        queue = next;
    }

    @Override
    public String fairnessId() {
        return fairnessId;
    }

    @Override
    public int size() {
        return queue.size();
    }

    @Override
    public QueuedRequest head() {
        return queue.peek();
    }
}
