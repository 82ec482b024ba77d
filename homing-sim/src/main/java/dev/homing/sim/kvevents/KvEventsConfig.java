package dev.homing.sim.kvevents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.homing.protocol.kvevents.KvEventFormat;
import java.util.Iterator;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * vLLM's {@code --kv-events-config} ({@code KVEventsConfig}, {@code vllm/config/kv_events.py}), plus how this pod lays
 * the events out, which in vLLM follows from its version and environment rather than from the config.
 *
 * @param enabled {@code enable_kv_cache_events}
 * @param publisher {@code "zmq"} or {@code "null"}; newer vLLM defaults it to zmq once events are enabled
 * @param endpoint the PUB socket's endpoint; bound or connected by vLLM's rule ({@link ZmqEndpoints#binds})
 * @param replayEndpoint where the ROUTER socket that replays buffered batches binds; null for none
 * @param bufferSteps batches kept for replay
 * @param hwm high-water mark of the PUB socket, in messages
 * @param maxQueueSize batches waiting for the publisher thread; more are dropped (vLLM blocks its engine instead)
 * @param topic the first frame of every message
 * @param format legacy tagged arrays (vLLM ≤ 0.25, the default) or tagged maps (vLLM ≥ 0.26)
 * @param intBlockHashes hashes as the low 64 bits of the digest ({@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=1}, the
 *     default) or as the 32 raw bytes ({@code 0})
 * @param dataParallelRank the engine's rank, sent in every batch
 */
public record KvEventsConfig(
        boolean enabled,
        String publisher,
        String endpoint,
        String replayEndpoint,
        int bufferSteps,
        int hwm,
        int maxQueueSize,
        String topic,
        KvEventFormat format,
        boolean intBlockHashes,
        int dataParallelRank) {

    public static final String DEFAULT_ENDPOINT = "tcp://*:5557";
    private static final Set<String> FIELDS = Set.of("enable_kv_cache_events", "publisher", "endpoint",
            "replay_endpoint", "buffer_steps", "hwm", "max_queue_size", "topic");
    private static final ObjectMapper JSON = new ObjectMapper();

    public KvEventsConfig {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(format, "format");
        if (!publisher.equals("zmq") && !publisher.equals("null")) {
            throw new IllegalArgumentException("kv-events-config publisher must be \"zmq\" or \"null\", got \""
                    + publisher + "\"");
        }
        if (bufferSteps < 1 || hwm < 0 || maxQueueSize < 1) {
            throw new IllegalArgumentException("kv-events-config buffer_steps and max_queue_size must be positive "
                    + "and hwm not negative");
        }
    }

    /** vLLM's defaults: events off. */
    public static KvEventsConfig disabled() {
        return new KvEventsConfig(false, "null", DEFAULT_ENDPOINT, null, 10_000, 100_000, 100_000, "",
                KvEventFormat.ARRAY, true, 0);
    }

    /** Events on, published over ZMQ at {@code endpoint}; the other fields at vLLM's defaults. */
    public static KvEventsConfig zmq(String endpoint) {
        return disabled().withJsonFields(true, "zmq", endpoint, null, 10_000, 100_000, 100_000, "");
    }

    /**
     * Reads vLLM's JSON form, e.g. {@code {"enable_kv_cache_events":true,"endpoint":"tcp://*:5557","topic":"kv"}}.
     * Absent fields keep vLLM's defaults; unknown fields are refused, as vLLM's config class does.
     */
    public static KvEventsConfig parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("kv-events-config is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("kv-events-config must be a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new IllegalArgumentException("kv-events-config has no field '" + f + "'; known: "
                        + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        KvEventsConfig d = disabled();
        boolean enabled = bool(root, "enable_kv_cache_events", false);
        String publisher = text(root, "publisher", null);
        return d.withJsonFields(enabled,
                publisher == null ? (enabled ? "zmq" : "null") : publisher.toLowerCase(Locale.ROOT),
                text(root, "endpoint", DEFAULT_ENDPOINT),
                text(root, "replay_endpoint", null),
                integer(root, "buffer_steps", d.bufferSteps),
                integer(root, "hwm", d.hwm),
                integer(root, "max_queue_size", d.maxQueueSize),
                text(root, "topic", ""));
    }

    /**
     * Reads {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES} as vLLM does ({@code bool(int(value))}, default {@code "1"}):
     * true for an unset variable or a non-zero integer.
     */
    public static boolean intBlockHashesFromEnv(String value) {
        if (value == null) {
            return true;
        }
        try {
            return Integer.parseInt(value.strip()) != 0;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES must be an integer (0 or 1), got '"
                    + value + "'", e);
        }
    }

    /** Whether a pod with this config publishes at all: enabled, with the zmq publisher. */
    public boolean publishes() {
        return enabled && publisher.equals("zmq");
    }

    public KvEventsConfig withFormat(KvEventFormat v) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, bufferSteps, hwm, maxQueueSize, topic,
                v, intBlockHashes, dataParallelRank);
    }

    public KvEventsConfig withIntBlockHashes(boolean v) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, bufferSteps, hwm, maxQueueSize, topic,
                format, v, dataParallelRank);
    }

    public KvEventsConfig withEndpoint(String v) {
        return new KvEventsConfig(enabled, publisher, v, replayEndpoint, bufferSteps, hwm, maxQueueSize, topic, format,
                intBlockHashes, dataParallelRank);
    }

    public KvEventsConfig withReplayEndpoint(String v) {
        return new KvEventsConfig(enabled, publisher, endpoint, v, bufferSteps, hwm, maxQueueSize, topic, format,
                intBlockHashes, dataParallelRank);
    }

    public KvEventsConfig withTopic(String v) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, bufferSteps, hwm, maxQueueSize, v,
                format, intBlockHashes, dataParallelRank);
    }

    public KvEventsConfig withBufferSteps(int v) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, v, hwm, maxQueueSize, topic, format,
                intBlockHashes, dataParallelRank);
    }

    public KvEventsConfig withMaxQueueSize(int v) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, bufferSteps, hwm, v, topic, format,
                intBlockHashes, dataParallelRank);
    }

    private KvEventsConfig withJsonFields(boolean enabled, String publisher, String endpoint, String replayEndpoint,
            int bufferSteps, int hwm, int maxQueueSize, String topic) {
        return new KvEventsConfig(enabled, publisher, endpoint, replayEndpoint, bufferSteps, hwm, maxQueueSize, topic,
                format, intBlockHashes, dataParallelRank);
    }

    private static boolean bool(JsonNode root, String field, boolean dflt) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("kv-events-config " + field + " must be true or false");
        }
        return v.booleanValue();
    }

    private static String text(JsonNode root, String field, String dflt) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("kv-events-config " + field + " must be a string");
        }
        return v.textValue();
    }

    private static int integer(JsonNode root, String field, int dflt) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException("kv-events-config " + field + " must be an integer");
        }
        return v.intValue();
    }
}
