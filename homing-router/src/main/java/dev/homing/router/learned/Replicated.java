package dev.homing.router.learned;

import java.util.Map;

/** A local copy of learned state that another replica's appends to its stream are applied to. */
interface Replicated {

    /** The Redis stream this state's changes are appended to. */
    String streamKey();

    /** Applies one change another replica appended. Called on the follower's thread only. */
    void apply(Map<String, String> fields);
}
