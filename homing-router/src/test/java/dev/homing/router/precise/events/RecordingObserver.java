package dev.homing.router.precise.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Test helper: every report, as a line, in order. */
final class RecordingObserver implements KvEventsObserver {

    final List<String> lines = new CopyOnWriteArrayList<>();

    long count(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).count();
    }

    @Override
    public void batchTaken(String pod) {
        lines.add("batch " + pod);
    }

    @Override
    public void eventsApplied(String pod, int events) {
        lines.add("applied " + pod + " " + events);
    }

    @Override
    public void eventsSkipped(String reason, int events) {
        lines.add("skipped " + reason + " " + events);
    }

    @Override
    public void gap(String pod, long missing) {
        lines.add("gap " + pod + " " + missing);
    }

    @Override
    public void batchesLost(String pod, long batches) {
        lines.add("lost " + pod + " " + batches);
    }

    @Override
    public void replay(String pod, boolean complete) {
        lines.add("replay " + pod + " " + (complete ? "complete" : "failed"));
    }

    @Override
    public void restart(String pod) {
        lines.add("restart " + pod);
    }

    @Override
    public void malformed(String pod) {
        lines.add("malformed " + pod);
    }

    @Override
    public void unknownPod(String podId) {
        lines.add("unknown " + podId);
    }
}
