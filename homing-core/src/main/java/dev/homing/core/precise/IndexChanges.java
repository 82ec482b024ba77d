package dev.homing.core.precise;

/**
 * What applying a pod's batch of KV events did to an {@link InMemoryPreciseIndex}, told in event order as it happens:
 * how a shared index mirrors the in-memory one without keying the events a second time. Called under the index's
 * lock, so an implementation only records.
 */
public interface IndexChanges {

    /** The pod holds {@code key} in the tier {@code medium} names (null: the GPU). */
    void held(String medium, long key);

    /** The pod's engine hash {@code engine} stands for {@code key}. */
    void mapped(long engine, long key);

    /** The pod dropped the block of engine hash {@code engine} from {@code medium}'s tier, whether known here or not. */
    void removed(String medium, long engine);

    /** A chain started from the adapter {@code loraName}. */
    void adapter(String loraName);

    /** The pod dropped everything. */
    void cleared();
}
