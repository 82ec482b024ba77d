package dev.homing.router.precise.events;

import dev.homing.core.endpoint.Endpoint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which endpoint of the pool a publisher's topic names, when pods connect to us and only the topic says who they
 * are ({@code kv@<pod>@<model>}): its name (a pod name), its {@code host:port} (what llm-d's docs and simulator put
 * there), or its host alone (older guides' {@code kv@${POD_IP}@...}) when exactly one endpoint has that host.
 */
final class PodResolver {

    private final Map<String, Endpoint> byName = new HashMap<>();
    private final Map<String, Endpoint> byAddress = new HashMap<>();
    private final Map<String, Endpoint> byHost = new HashMap<>();

    PodResolver(List<Endpoint> endpoints) {
        Map<String, Integer> hosts = new HashMap<>();
        for (Endpoint e : endpoints) {
            byName.put(e.name(), e);
            byAddress.put(e.address(), e);
            byAddress.putIfAbsent(e.host() + ":" + e.port(), e);
            hosts.merge(e.host(), 1, Integer::sum);
        }
        for (Endpoint e : endpoints) {
            if (hosts.get(e.host()) == 1) {
                byHost.put(e.host(), e);
            }
        }
    }

    /** The endpoint {@code podId} names, or null. */
    Endpoint resolve(String podId) {
        Endpoint e = byName.get(podId);
        if (e == null) {
            e = byAddress.get(podId);
        }
        if (e == null) {
            e = byHost.get(podId.startsWith("[") && podId.endsWith("]") ? podId.substring(1, podId.length() - 1) : podId);
        }
        return e;
    }
}
