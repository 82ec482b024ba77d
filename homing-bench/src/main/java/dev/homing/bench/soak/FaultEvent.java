package dev.homing.bench.soak;

/**
 * Something done to a pod, or what came of it.
 *
 * @param atMillis from the start of the load
 */
public record FaultEvent(long atMillis, String pod, String what) {

    @Override
    public String toString() {
        return SoakTable.clock(atMillis) + " " + pod + " " + what;
    }
}
