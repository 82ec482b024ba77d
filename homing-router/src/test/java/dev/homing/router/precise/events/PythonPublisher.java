package dev.homing.router.precise.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.fixtures.JsonLinesProcess;
import dev.homing.protocol.fixtures.PythonScript;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Test helper: {@code kv_publisher.py}, a vLLM-format KV-event publisher written with Debian's pyzmq and msgpack. Every
 * command is answered by one line; {@link #call} sends one and waits for the line that answers it.
 */
final class PythonPublisher implements AutoCloseable {

    private static final Duration ANSWER = Duration.ofSeconds(40);

    private final JsonLinesProcess script;

    private PythonPublisher(JsonLinesProcess script) {
        this.script = script;
    }

    /** Starts the script with its seed (block hashes) and a lifetime it will not outlive. */
    static PythonPublisher start(Path dir, long seed, Duration lifetime) throws IOException {
        PythonPublisher py = new PythonPublisher(PythonScript.start(dir, PythonPublisher.class, "kv_publisher.py",
                "python3 python3-zmq python3-msgpack", Long.toString(seed), Long.toString(lifetime.toSeconds())));
        py.await(n -> n.has("ready"), ANSWER);
        return py;
    }

    /** Sends a command and returns the line that has {@code answerField}. */
    JsonNode call(Map<String, ?> command, String answerField) {
        send(command);
        return await(n -> n.has(answerField), ANSWER);
    }

    void send(Object command) {
        script.send(command);
    }

    JsonNode await(Predicate<JsonNode> match, Duration timeout) {
        return script.await(match, timeout);
    }

    /** Every line taken so far, in order. */
    List<JsonNode> seen() {
        return script.seen();
    }

    String stderr() {
        return script.stderr();
    }

    @Override
    public void close() {
        script.close();
    }
}
