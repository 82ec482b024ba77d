package dev.homing.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.sim.engine.CostModel;
import dev.homing.sim.engine.KvEventSink;
import dev.homing.sim.engine.Preset;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A response is stored before the client can have it, as vLLM stores it: before a whole response is returned, and
 * before a stream's {@code response.completed}. A client that names it the moment it has it must find it. The handler
 * is called directly, its exchange a stand-in that looks into the store at each write (over a socket, the order of the
 * pod's store and the client's next request would be a race no test can pin).
 */
class ResponseStoringTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "Qwen/Qwen2.5-0.5B-Instruct";

    private final PodServices pod = PodServices.start(SimPodConfig.builder()
            .engine(Preset.CPU_QWEN2_5_0_5B.engine().withCost(CostModel.simple(0, 10_000, 1_000_000L, 0)))
            .model(MODEL).podName("pod-a").seed(3).build(), KvEventSink.NONE, () -> false);
    private final ResponseStore store = new ResponseStore(100);
    private final ResponsesHandler handler = new ResponsesHandler(pod, store);

    @AfterEach
    void stop() {
        pod.driver().close();
    }

    private static String body(boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"input\":\"Tell me about routers\",\"max_output_tokens\":5,"
                + "\"ignore_eos\":true" + (stream ? ",\"stream\":true" : "") + "}";
    }

    @Test
    void aWholeResponseIsStoredBeforeItIsSent() throws IOException {
        List<Boolean> storedWhenSent = new ArrayList<>();
        handler.create(request(body(false)), response(bytes -> {
            String id = json(bytes).path("id").asText();
            storedWhenSent.add(store.get(id) != null);
        }, OutputStream.nullOutputStream()));
        assertThat(storedWhenSent).containsExactly(true);
    }

    @Test
    void aStreamedResponseIsStoredBeforeItsCompletedEventIsSent() {
        List<String> events = new ArrayList<>();
        List<Boolean> storedAtCompleted = new ArrayList<>();
        OutputStream out = new OutputStream() {
            @Override
            public void write(int b) {
                throw new UnsupportedOperationException("the handler writes whole events");
            }

            @Override
            public void write(byte[] b, int off, int len) {
                String event = new String(b, off, len, StandardCharsets.UTF_8);
                events.add(event);
                if (event.startsWith("event: response.completed")) {
                    String id = json(event.substring(event.indexOf("data: ") + 6)).path("response").path("id")
                            .asText();
                    storedAtCompleted.add(store.get(id) != null);
                }
            }
        };
        handler.create(request(body(true)), response(bytes -> {
            throw new AssertionError("a stream is written, not sent");
        }, out));
        assertThat(events.getFirst()).startsWith("event: response.created");
        assertThat(storedAtCompleted).containsExactly(true);
    }

    private static JsonNode json(byte[] bytes) {
        return json(new String(bytes, StandardCharsets.UTF_8));
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A POST with this body and no headers: all the handler reads of a request. */
    private static ServerRequest request(String body) {
        Object headers = stand(io.helidon.http.ServerRequestHeaders.class, (m, args) ->
                m.getName().equals("first") ? Optional.empty() : unexpected(m.getName()));
        Object content = stand(io.helidon.http.media.ReadableEntity.class, (m, args) ->
                m.getName().equals("inputStream") ? new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))
                        : unexpected(m.getName()));
        return stand(ServerRequest.class, (m, args) -> switch (m.getName()) {
            case "headers" -> headers;
            case "content" -> content;
            default -> unexpected(m.getName());
        });
    }

    /** A response whose {@code send(byte[])} goes to {@code sent} and whose stream is {@code out}. */
    private static ServerResponse response(Consumer<byte[]> sent, OutputStream out) {
        ServerResponse[] self = new ServerResponse[1];
        self[0] = stand(ServerResponse.class, (m, args) -> {
            if (m.getName().equals("send") && args != null && args.length == 1 && args[0] instanceof byte[] b) {
                sent.accept(b);
                return null;
            }
            if (m.getName().equals("outputStream")) {
                return out;
            }
            if (m.getName().equals("status") || m.getName().equals("header")) {
                return self[0]; // status and headers are the exchange's; nothing here reads them
            }
            return unexpected(m.getName());
        });
        return self[0];
    }

    private interface Answer {
        Object answer(java.lang.reflect.Method method, Object[] args);
    }

    private static <T> T stand(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(ResponseStoringTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> answer.answer(method, args)));
    }

    private static Object unexpected(String method) {
        throw new AssertionError("the handler called " + method);
    }
}
