package dev.homing.core.flowcontrol;

import dev.homing.core.framework.flowcontrol.FairnessPolicy;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/** One priority band: its flows by fairness id, each ordered by the band's ordering policy. */
final class Band {
    final int priority;
    final TreeMap<String, Flow> flows = new TreeMap<>();
    final List<Flow> sorted = new ArrayList<>();
    BandSettings settings;
    boolean configured;
    FairnessPolicy.Selector selector;
    Comparator<QueuedRequest> order;
    int count;
    long bytes;

    Band(int priority, BandSettings settings, boolean configured) {
        this.priority = priority;
        configure(settings, configured);
    }

    void configure(BandSettings next, boolean configured) {
        this.configured = configured;
        if (settings == null || next.fairness() != settings.fairness()) {
            selector = next.fairness().newSelector();
        }
        Comparator<QueuedRequest> nextOrder = next.ordering().order()
                .thenComparingLong(QueuedRequest::sequence);
        if (settings != null && next.ordering() != settings.ordering()) {
            for (Flow f : flows.values()) {
                f.reorder(nextOrder);
            }
        }
        order = nextOrder;
        settings = next;
    }

    void add(Item item) {
        String id = item.request.fairnessId();
        Flow f = flows.get(id);
        if (f == null) {
            f = new Flow(id, order);
            flows.put(id, f);
            sorted.clear();
            sorted.addAll(flows.values());
        }
        f.queue.add(item);
        f.bytes += item.bytes;
        count++;
        bytes += item.bytes;
    }

    Item poll() {
        Flow f = (Flow) selector.pick(sorted, order);
        if (f == null) {
            return null;
        }
        Item item = f.queue.poll();
        taken(f, item);
        return item;
    }

    void remove(Item item) {
        Flow f = flows.get(item.request.fairnessId());
        if (f != null && f.queue.remove(item)) {
            taken(f, item);
        }
    }

    private void taken(Flow f, Item item) {
        f.bytes -= item.bytes;
        count--;
        bytes -= item.bytes;
        if (f.queue.isEmpty()) {
            flows.remove(f.fairnessId);
            sorted.remove(f);
        }
    }
}
