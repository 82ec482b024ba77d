package dev.homing.bench.soak;

/**
 * One request of the soak's mix, whole on the wire.
 *
 * @param bytes  the HTTP/1.1 request, head and body
 * @param stream whether it asks for a stream ({@code "stream": true})
 * @param chat   a chat completion, else a completion
 */
record SoakRequest(byte[] bytes, boolean stream, boolean chat) {
}
