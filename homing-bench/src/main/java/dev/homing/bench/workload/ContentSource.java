package dev.homing.bench.workload;

import java.util.OptionalInt;

/** Makes the requests of a workload in order; the arrival process decides how many are asked for and when. */
interface ContentSource {

    /** The request at {@code index}; called for 0, 1, 2, ... in order, once each. */
    RequestContent next(int index);

    /** How many requests one pass through the workload makes: the default count for closed loop and bursts. */
    int onePass();

    /** The most requests it can make (a trace's records), or empty when it never runs out. */
    default OptionalInt limit() {
        return OptionalInt.empty();
    }
}
