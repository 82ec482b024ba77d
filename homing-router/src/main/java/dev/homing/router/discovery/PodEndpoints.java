package dev.homing.router.discovery;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.router.precise.events.PublisherAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The endpoints a pool's pods make, as llm-d's pod reconciler and datastore decide: a pod counts iff its
 * {@code Ready} condition is {@code True}, it has no {@code deletionTimestamp}, it has an IP, and the selector matches
 * its labels; each of its target ports is then an endpoint at {@code podIP:port} (fewer when the pod's
 * {@code llm-d.ai/active-ports} annotation names only some). The first port's endpoint is named as the pod is;
 * further ports' endpoints {@code POD-rank-N} (N the port's place in the list, llm-d's rank), so a pool of one port
 * per pod keeps the pods' own names, and adding a port renames none. The pod's labels are the endpoint's
 * ({@code llm-d.ai/role} feeds the P/D filters); Homing's KV-event addresses, which no label value can hold, are read
 * from the pod's annotations of the same names.
 *
 * @param endpoints by name
 * @param problems  what was left out and why (a bad annotation, a clash of names), for the log
 */
record PodEndpoints(List<Endpoint> endpoints, List<String> problems) {

    static final String ACTIVE_PORTS = "llm-d.ai/active-ports";
    /** GIE's older name for it, which llm-d still reads. */
    static final String LEGACY_ACTIVE_PORTS = "inference.networking.k8s.io/active-ports";

    static PodEndpoints of(Collection<Pod> pods, LabelSelector selector, List<Integer> targetPorts) {
        List<Endpoint> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        for (Pod pod : sorted) {
            Map<String, String> podLabels = pod.getMetadata().getLabels() == null ? Map.of()
                    : pod.getMetadata().getLabels();
            if (!ready(pod) || !selector.matches(podLabels)) {
                continue;
            }
            Map<String, String> labels = labels(pod, podLabels, problems);
            Set<Integer> active = activePorts(pod, targetPorts);
            for (int rank = 0; rank < targetPorts.size(); rank++) {
                int port = targetPorts.get(rank);
                if (!active.contains(port)) {
                    continue;
                }
                String name = rank == 0 ? pod.getMetadata().getName() : pod.getMetadata().getName() + "-rank-" + rank;
                if (!names.add(name)) {
                    problems.add("pod " + pod.getMetadata().getName() + " port " + port + ": the endpoint name " + name
                            + " is another pod's; left out");
                    continue;
                }
                out.add(new Endpoint(name, pod.getStatus().getPodIP(), port, labels));
            }
        }
        out.sort(Comparator.comparing(Endpoint::name));
        return new PodEndpoints(List.copyOf(out), List.copyOf(problems));
    }

    /** llm-d's {@code IsPodReady}, with an IP to send to: Ready=True (readiness gates included), not being deleted. */
    static boolean ready(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
            return false;
        }
        String ip = pod.getStatus().getPodIP();
        if (ip == null || ip.isBlank()) {
            return false;
        }
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions != null && conditions.stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Map<String, String> labels(Pod pod, Map<String, String> podLabels, List<String> problems) {
        Map<String, String> labels = new LinkedHashMap<>(podLabels);
        labels.keySet().removeAll(LabelSyntax.HOMING_KEYS); // no label value can be an address: annotations say it
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        if (annotations != null) {
            for (String key : List.of(PublisherAddress.EVENTS_LABEL, PublisherAddress.REPLAY_LABEL)) {
                String value = annotations.get(key);
                if (value == null) {
                    continue;
                }
                String problem = LabelSyntax.valueProblem(key, value.strip());
                if (problem != null) {
                    problems.add("pod " + pod.getMetadata().getName() + ": annotation " + problem + "; ignored");
                } else {
                    labels.put(key, value.strip());
                }
            }
        }
        return labels;
    }

    /** The target ports the pod's active-ports annotation names (all of them without one), as llm-d reads it. */
    private static Set<Integer> activePorts(Pod pod, List<Integer> targetPorts) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.getOrDefault(ACTIVE_PORTS,
                annotations.get(LEGACY_ACTIVE_PORTS));
        if (value == null) {
            return new LinkedHashSet<>(targetPorts);
        }
        Set<Integer> active = new LinkedHashSet<>();
        for (String p : value.split(",")) {
            try {
                int port = Integer.parseInt(p.strip());
                if (targetPorts.contains(port)) {
                    active.add(port);
                }
            } catch (NumberFormatException ignored) {
                // llm-d skips what is not a number
            }
        }
        return active;
    }
}
