package dev.homing.core.learned;

import dev.homing.core.endpoint.EndpointState;
import java.util.List;

/**
 * Which endpoints were sent which prompt blocks: the router's guess, from its own picks, at what each pod's KV cache
 * holds (llm-d's approximate prefix index).
 *
 * <p>{@link InMemoryApproxIndex} keeps it in this process; a host may provide another through {@link LearnedState}
 * (the router's, shared by its replicas through Redis). Every implementation is thread-safe and bounded as the
 * in-memory one: each endpoint keeps at most the capacity its records name, the whole index at most the
 * {@code maxEntries} it was made with, and beyond either the least recently recorded (endpoint, block) entry goes.
 */
public interface ApproxIndex {

    /**
     * Records that {@code endpoint} was sent these blocks. Called under the director's decision lock, so an
     * implementation must not wait on I/O here.
     *
     * @param capacity the most blocks to keep for this endpoint
     * @return this record's stamp, which {@link #forget} takes
     */
    int record(String endpoint, long[] hashes, long capacity);

    /**
     * How many leading blocks each candidate holds, without gaps: a KV cache reuses a prefix only up to its first
     * missing block.
     *
     * @param snapshotSize length of the result, indexed by {@link EndpointState#index()}
     */
    int[] match(long[] hashes, List<EndpointState> candidates, int snapshotSize);

    /**
     * Starts a match before the decision lock is taken; {@link Lookup#match} finishes it under the lock, and sees
     * what this index recorded since the lookup began. An index whose state is remote does its round trip here, so
     * that decisions, which are serialised, never wait on the network. The default does all the work in
     * {@link Lookup#match}.
     */
    default Lookup lookup(long[] hashes) {
        return (candidates, snapshotSize) -> match(hashes, candidates, snapshotSize);
    }

    /**
     * Forgets that {@code endpoint} was sent the blocks {@code hashes[from..]} by the record {@code stamp}: that
     * request was served elsewhere. A block a later record touched again stays: another request put it there.
     * Under the decision lock, as {@link #record}.
     */
    void forget(String endpoint, long[] hashes, int from, int stamp);

    /** Forgets an endpoint that left the pool. */
    void removeEndpoint(String endpoint);

    /** (endpoint, block) entries held. */
    long size();

    /** Blocks held for one endpoint. */
    long size(String endpoint);

    /** A match begun outside the decision lock. */
    @FunctionalInterface
    interface Lookup {
        int[] match(List<EndpointState> candidates, int snapshotSize);
    }
}
