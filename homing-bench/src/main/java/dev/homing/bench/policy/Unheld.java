package dev.homing.bench.policy;

/** A placement by a policy that keeps no per-request state. */
record Unheld(int pod) implements Placement {

    @Override
    public void finished(long nanos) {
    }
}
