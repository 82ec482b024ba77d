package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.hashing.BlockHasher;
import java.util.Arrays;
import java.util.List;

/** The engine's state of one request: its tokens, their block hashes, its KV blocks and its progress. */
final class EngineRequest {

    enum State { ARRIVING, WAITING, RUNNING, FINISHED }

    final SimRequest request;
    final RequestObserver observer;
    final RequestHandle handle;
    final long sequence;
    final long arrivalNanos;
    final long readyNanos;
    final int promptLength;
    private final List<Object> firstBlockKeys;
    private final List<Object> laterBlockKeys;
    private final int blockSize;

    final int[] tokens;
    int numTokens;
    final BlockHash[] hashes;
    int numHashes;
    Block[] blocks;
    int numBlocks;
    /** Leading blocks registered in the prefix cache. */
    int numCachedBlocks;

    int numComputed;
    /** Tokens scheduled in the step in flight. */
    int scheduled;
    int outputTokens;
    int cachedTokens = -1;
    int preemptions;
    long firstTokenNanos = Long.MIN_VALUE;
    State state = State.ARRIVING;

    EngineRequest(SimRequest request, RequestObserver observer, long sequence, long arrivalNanos, long readyNanos,
            int maxLength, int blockSize, BlockHasher hasher) {
        this.request = request;
        this.observer = observer;
        this.sequence = sequence;
        this.arrivalNanos = arrivalNanos;
        this.readyNanos = readyNanos;
        this.blockSize = blockSize;
        this.promptLength = request.promptTokens().length;
        this.firstBlockKeys = BlockHasher.extraKeys(request.loraName(), request.cacheSalt(), true);
        this.laterBlockKeys = BlockHasher.extraKeys(request.loraName(), request.cacheSalt(), false);
        this.tokens = Arrays.copyOf(request.promptTokens(), maxLength);
        this.hashes = new BlockHash[maxLength / blockSize + 1];
        this.blocks = new Block[Math.min(hashes.length, promptLength / blockSize + 2)];
        this.numTokens = promptLength;
        hashFullBlocks(hasher);
        this.handle = new RequestHandle(this);
    }

    void appendToken(int token, BlockHasher hasher) {
        tokens[numTokens++] = token;
        hashFullBlocks(hasher);
    }

    /** The extra keys of block {@code j}'s hash, or null. */
    List<Object> extraKeys(int j) {
        return j == 0 ? firstBlockKeys : laterBlockKeys;
    }

    /** All tokens but the last sampled one have KV: the next step computes one token. */
    boolean isDecoding() {
        return outputTokens > 0 && numComputed == numTokens - 1;
    }

    void addBlock(Block b) {
        if (numBlocks == blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.min(hashes.length, blocks.length * 2));
        }
        blocks[numBlocks++] = b;
    }

    Usage usage() {
        return new Usage(promptLength, outputTokens, Math.max(0, cachedTokens));
    }

    private void hashFullBlocks(BlockHasher hasher) {
        while ((numHashes + 1) * blockSize <= numTokens) {
            BlockHash parent = numHashes == 0 ? null : hashes[numHashes - 1];
            hashes[numHashes] = hasher.hash(parent, tokens, numHashes * blockSize, (numHashes + 1) * blockSize,
                    numHashes == 0 ? firstBlockKeys : laterBlockKeys);
            numHashes++;
        }
    }
}
