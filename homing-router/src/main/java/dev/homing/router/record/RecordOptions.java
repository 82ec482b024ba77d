package dev.homing.router.record;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How {@code homing serve --record} writes its trace.
 *
 * @param file           the trace; older ones are {@code file.1} (the newest) to {@code file.(maxFiles-1)}
 * @param maxBytes       a file is rotated before a line would take it beyond this size
 * @param maxFiles       files kept, the one being written included; the oldest is deleted on rotation
 * @param queueCapacity  completed requests waiting for the writer; one more is dropped (and counted)
 * @param maxQueuedBytes request bodies the waiting requests may hold alive; one more is dropped (and counted)
 * @param maxIds         block ids and session ids one file may number; a file that would need more is rotated, so
 *                       the renumbering map stays bounded
 */
public record RecordOptions(Path file, long maxBytes, int maxFiles, int queueCapacity, long maxQueuedBytes,
                            int maxIds) {

    public static final long DEFAULT_MAX_BYTES = 100L << 20;
    public static final int DEFAULT_MAX_FILES = 5;
    static final int DEFAULT_QUEUE = 8192;
    static final long DEFAULT_QUEUED_BYTES = 64L << 20;
    /** About 24 MiB of map at most (open addressing, half full). */
    static final int DEFAULT_MAX_IDS = 1 << 20;

    public RecordOptions {
        Objects.requireNonNull(file, "file");
        if (maxBytes < 4096) {
            throw new IllegalArgumentException("--record-max-bytes must be at least 4096, got " + maxBytes);
        }
        if (maxFiles < 1) {
            throw new IllegalArgumentException("--record-max-files must be at least 1, got " + maxFiles);
        }
        if (queueCapacity < 1 || maxQueuedBytes < 1 || maxIds < 2) {
            throw new IllegalArgumentException("record queue, queued bytes and ids must be positive");
        }
    }

    /**
     * A size as {@code --record-max-bytes} takes it: bytes, or a number with {@code KiB}, {@code MiB}, {@code GiB}
     * (or {@code K}, {@code M}, {@code G}, also powers of 1024).
     */
    public static long parseSize(String text) {
        String t = text.strip();
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("--record-max-bytes: '" + text + "' is not a size (bytes, or with KiB,"
                    + " MiB, GiB)");
        }
        long n;
        try {
            n = Long.parseLong(t.substring(0, i));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--record-max-bytes: '" + text + "' is too large");
        }
        int shift = switch (t.substring(i).strip().toLowerCase(java.util.Locale.ROOT)) {
            case "", "b" -> 0;
            case "k", "kib", "kb" -> 10;
            case "m", "mib", "mb" -> 20;
            case "g", "gib", "gb" -> 30;
            default -> throw new IllegalArgumentException("--record-max-bytes: '" + text + "' has an unknown unit;"
                    + " use KiB, MiB or GiB");
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("--record-max-bytes: '" + text + "' is too large");
        }
        return n << shift;
    }

    public static RecordOptions of(Path file, long maxBytes, int maxFiles) {
        return new RecordOptions(file, maxBytes, maxFiles, DEFAULT_QUEUE, DEFAULT_QUEUED_BYTES, DEFAULT_MAX_IDS);
    }
}
