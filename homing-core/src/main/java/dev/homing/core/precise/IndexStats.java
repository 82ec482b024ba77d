package dev.homing.core.precise;

/**
 * What the KV events a {@link PreciseIndex} applied amounted to, since it was made. Each count is read on its own, not
 * all at one instant: a batch applied meanwhile may show in some and not yet in others.
 *
 * @param storedBlocks     blocks stored by events applied
 * @param removedBlocks    holdings removed by events applied
 * @param unresolvedEvents events that could not be applied (a parent never seen, a block size not ours), and blocks
 *                         of a copy to another tier that the pod was never seen to store
 * @param clears           {@code AllBlocksCleared} events applied (not calls to {@link PreciseIndex#clear})
 */
public record IndexStats(long storedBlocks, long removedBlocks, long unresolvedEvents, long clears) {
}
