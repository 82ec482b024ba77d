package dev.homing.sim.tokenizer;

import java.util.Arrays;

/**
 * Turns a stream of token ids into text as it arrives, like vLLM's incremental detokenizer: special tokens are
 * skipped, and a character split across byte tokens is held back until it is complete. Not thread-safe.
 */
public final class Detokenizer {

    private final SimTokenizer tokenizer;
    private final StringBuilder text = new StringBuilder();
    private byte[] pending = new byte[16];
    private int pendingLength;

    Detokenizer(SimTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** The text that {@code tokenId} completes; often the token's own text, empty while a character is unfinished. */
    public String append(int tokenId) {
        if (tokenizer.isSpecial(tokenId) || tokenId < 0 || tokenId >= tokenizer.vocabularySize()) {
            return "";
        }
        pendingLength = tokenizer.appendBytes(tokenId, ensure(8), pendingLength);
        text.setLength(0);
        int used = Wtf8.decode(pending, pendingLength, text, true);
        System.arraycopy(pending, used, pending, 0, pendingLength - used);
        pendingLength -= used;
        return text.toString();
    }

    /** Whatever is still held back, as replacement characters: the stream ended inside a character. */
    public String finish() {
        text.setLength(0);
        Wtf8.decode(pending, pendingLength, text, false);
        pendingLength = 0;
        return text.toString();
    }

    private byte[] ensure(int extra) {
        int need = pendingLength + Math.max(extra, tokenizer.maxPieceLength());
        if (need > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(need, pending.length * 2));
        }
        return pending;
    }
}
