package dev.homing.router.record;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The trace file and its older siblings: {@code FILE} is written, {@code FILE.1} is the one before, up to
 * {@code FILE.(maxFiles-1)}; rotating renames each one up and deletes the oldest, so at most {@code maxFiles} files
 * and about {@code maxFiles × maxBytes} bytes stay on disk. A {@code FILE} left by an earlier run is rotated away at
 * open rather than appended to: its numbering and its clock were another's. Confined to the writer thread.
 */
final class RotatingTraceFile implements AutoCloseable {

    private final Path file;
    private final long maxBytes;
    private final int maxFiles;
    private OutputStream out;
    private long written;

    RotatingTraceFile(Path file, long maxBytes, int maxFiles) throws IOException {
        this.file = file;
        this.maxBytes = maxBytes;
        this.maxFiles = maxFiles;
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        if (Files.exists(file) && Files.size(file) > 0) {
            shift();
        }
        open();
    }

    /** Whether a line of {@code bytes} must go to a new file: this one holds lines and would pass its bound. */
    boolean full(int bytes) {
        return written > 0 && written + bytes > maxBytes;
    }

    /** Bytes in the file being written. */
    long written() {
        return written;
    }

    void write(String line) throws IOException {
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        out.write(b);
        written += b.length;
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Closes the file and starts an empty one in its place, its predecessors moved up one. */
    void rotate() throws IOException {
        out.close();
        shift();
        open();
    }

    private void shift() throws IOException {
        Files.deleteIfExists(sibling(maxFiles - 1));
        for (int i = maxFiles - 2; i >= 0; i--) {
            Path from = sibling(i);
            if (Files.exists(from)) {
                Files.move(from, sibling(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        // with maxFiles == 1 the loop moved nothing and FILE itself was deleted above
    }

    private Path sibling(int i) {
        return i == 0 ? file : file.resolveSibling(file.getFileName() + "." + i);
    }

    private void open() throws IOException {
        out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
        written = 0;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
