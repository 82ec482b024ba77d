package dev.homing.sim.kvevents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.protocol.fixtures.JsonLinesProcess;
import dev.homing.protocol.fixtures.PythonScript;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/** Test helper: {@code kv_subscriber.py}, a KV-event subscriber written with Debian's pyzmq, msgpack and cbor2. */
final class PythonSubscriber implements AutoCloseable {

    private final JsonLinesProcess script;

    private PythonSubscriber(JsonLinesProcess script) {
        this.script = script;
    }

    /**
     * Starts the subscriber. {@code bind}: it binds a SUB on 127.0.0.1 and {@link #port()} says where; otherwise it
     * connects to {@code endpoint}.
     */
    static PythonSubscriber start(Path dir, boolean bind, String endpoint, String topicPrefix) throws IOException {
        return new PythonSubscriber(PythonScript.start(dir, PythonSubscriber.class, "kv_subscriber.py",
                "python3 python3-zmq python3-msgpack python3-cbor2", bind ? "bind" : "connect",
                endpoint == null ? "-" : endpoint, topicPrefix));
    }

    int port() {
        return await(n -> n.has("port"), Duration.ofSeconds(30)).get("port").asInt();
    }

    void awaitReady() {
        await(n -> n.has("ready"), Duration.ofSeconds(30));
    }

    void send(Object command) {
        script.send(command);
    }

    JsonNode await(Predicate<JsonNode> match, Duration timeout) {
        return script.await(match, timeout);
    }

    JsonNode poll(Predicate<JsonNode> match, Duration timeout) {
        return script.poll(match, timeout);
    }

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
