package dev.homing.router.precise.events;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.precise.KvEventsSettings;

/**
 * Where a pod publishes its KV events, and where it replays them. vLLM binds {@code tcp://*:5557} by default, so the
 * address is the pod's host at {@code socketPort} (llm-d's pod discovery); an endpoint may say otherwise with a label,
 * as local clusters do, whose pods bind ephemeral ports. vLLM's replay socket has no conventional port and llm-d does
 * not use it, so only the label gives one.
 *
 * @param events the PUB socket to dial
 * @param replay the ROUTER socket to ask for missed batches, or null
 */
public record PublisherAddress(String events, String replay) {

    /** An endpoint label naming its publisher's ZMQ endpoint, e.g. {@code tcp://127.0.0.1:40123}. */
    public static final String EVENTS_LABEL = "homing.dev/kv-events-endpoint";
    /** An endpoint label naming its publisher's replay endpoint. */
    public static final String REPLAY_LABEL = "homing.dev/kv-events-replay-endpoint";

    public static PublisherAddress of(Endpoint endpoint, KvEventsSettings settings) {
        String events = blankToNull(endpoint.label(EVENTS_LABEL));
        if (events == null) {
            String host = endpoint.host().indexOf(':') >= 0 ? "[" + endpoint.host() + "]" : endpoint.host();
            events = "tcp://" + host + ":" + settings.socketPort();
        }
        return new PublisherAddress(events, replayOf(endpoint));
    }

    /** The endpoint's replay address, or null. */
    static String replayOf(Endpoint endpoint) {
        return blankToNull(endpoint.label(REPLAY_LABEL));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
