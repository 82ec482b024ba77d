package dev.homing.router.precise.events;

/**
 * Who a KV-event message is from, read from its ZMQ topic as llm-d does ({@code parseTopic}): {@code kv@<pod>@<model>}
 * names the pod (an IP, {@code ip:port} or a pod name) and the model; a topic of any other shape is the pod's id as a
 * whole, with no model.
 */
public record KvTopic(String podId, String model) {

    public static KvTopic parse(String topic) {
        String[] parts = topic.split("@", -1);
        if (parts.length == 3) {
            return new KvTopic(parts[1], parts[2]);
        }
        return new KvTopic(topic, "");
    }
}
