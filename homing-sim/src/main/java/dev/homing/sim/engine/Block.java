package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;

/** One KV block of {@code blockSize} token slots; links make the free queue and same-hash chains allocation-free. */
final class Block {

    final int id;
    int refCount;
    /** Set while the block is registered in the prefix cache. */
    BlockHash hash;
    /** Another cached block with the same hash (two requests filled the same prefix at once), or null. */
    Block nextSameHash;
    Block prevFree;
    Block nextFree;

    Block(int id) {
        this.id = id;
    }

    boolean inFreeQueue() {
        return prevFree != null;
    }

    @Override
    public String toString() {
        return "Block[" + id + ", ref " + refCount + (hash == null ? "" : ", cached") + "]";
    }
}
