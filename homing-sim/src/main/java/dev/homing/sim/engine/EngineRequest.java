package dev.homing.sim.engine;

import dev.homing.protocol.hashing.BlockHash;
import dev.homing.protocol.hashing.BlockHasher;
import java.util.Arrays;
import java.util.List;

/** The engine's state of one request: its tokens, their block hashes, its KV blocks and its progress. */
final class EngineRequest {

    /** Output tokens room reserved at first: most answers fit, longer ones double the arrays. */
    private static final int HEADROOM = 256;

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

    /** Grown as tokens are appended, up to {@code maxLength}: a request sized for max_model_len rarely gets there. */
    int[] tokens;
    int numTokens;
    BlockHash[] hashes;
    int numHashes;
    private final int maxLength;
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
        this.maxLength = maxLength;
        this.tokens = Arrays.copyOf(request.promptTokens(), Math.min(maxLength, promptLength + HEADROOM));
        this.hashes = new BlockHash[tokens.length / blockSize + 1];
        this.blocks = new Block[Math.min(maxBlocks(), promptLength / blockSize + 2)];
        this.numTokens = promptLength;
        hashFullBlocks(hasher);
        this.handle = new RequestHandle(this);
    }

    void appendToken(int token, BlockHasher hasher) {
        if (numTokens == tokens.length) {
            tokens = Arrays.copyOf(tokens, Math.min(maxLength, tokens.length * 2));
            hashes = Arrays.copyOf(hashes, tokens.length / blockSize + 1);
        }
        tokens[numTokens++] = token;
        hashFullBlocks(hasher);
    }

    private int maxBlocks() {
        return maxLength / blockSize + 1;
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
            blocks = Arrays.copyOf(blocks, Math.min(maxBlocks(), blocks.length * 2));
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
