package dev.homing.router.proxy;

import dev.homing.protocol.openai.OpenAiError;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** The responses the router answers itself: JSON, an OpenAI-shaped error, an SSE error event ending a stream. */
final class Responses {

    private Responses() {
    }

    static FullHttpResponse json(int status, byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return r;
    }

    static FullHttpResponse error(OpenAiError error) {
        return json(error.status(), error.toJson());
    }

    static FullHttpResponse empty(int status) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return r;
    }

    /** The event that ends a stream the pod broke off: clients of OpenAI's SSE read an error event so. */
    static byte[] sseError(String message) {
        return sseError(OpenAiError.badGateway(message));
    }

    /** An error event ending a stream. */
    static byte[] sseError(OpenAiError e) {
        return ("data: " + new String(e.toJson(), StandardCharsets.UTF_8) + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
