package dev.homing.bench.policy;

/** Each request to the next pod in turn, blind to load and cache. */
final class RoundRobinPolicy implements Policy {

    private final int pods;
    private int next;

    RoundRobinPolicy(int pods) {
        this.pods = pods;
    }

    @Override
    public String name() {
        return Policies.ROUND_ROBIN;
    }

    @Override
    public Placement place(PolicyRequest request) {
        int pod = next;
        next = (next + 1) % pods;
        return new Unheld(pod);
    }
}
