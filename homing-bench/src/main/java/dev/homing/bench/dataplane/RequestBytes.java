package dev.homing.bench.dataplane;

import java.nio.charset.StandardCharsets;

/** A whole HTTP/1.1 request in bytes, made once and sent as it is by every connection of a load. */
public final class RequestBytes {

    private RequestBytes() {
    }

    /** {@code POST path} with a JSON body, keep-alive. */
    public static byte[] postJson(String path, String json) {
        return postJson(path, json.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code POST path} with a JSON body already in UTF-8, keep-alive. */
    public static byte[] postJson(String path, byte[] body) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }
}
