package dev.homing.router.discovery;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which pods of a namespace are the pool, as llm-d's picker is told: an InferencePool to follow
 * ({@code --pool-name}, its selector and target ports read from it and followed as they are edited), or, without one,
 * a label selector and target ports given outright (llm-d's standalone mode, {@code --endpoint-selector} and
 * {@code --endpoint-target-ports}).
 *
 * @param namespace   where the pool and its pods are
 * @param name        the InferencePool's name; standalone, the name the picker's replicas share (their Deployment's)
 * @param selector    standalone only (null for an InferencePool): which pods
 * @param targetPorts standalone only (empty for an InferencePool): each ready pod's ports, one endpoint each
 */
public record KubernetesPool(String namespace, String name, LabelSelector selector, List<Integer> targetPorts) {

    /** The only InferencePool API group llm-d reads ({@code inference.networking.k8s.io/v1}). */
    public static final String GROUP = "inference.networking.k8s.io";
    public static final String VERSION = "v1";
    /** An InferencePool lists 1 to 8 target ports. */
    static final int MAX_TARGET_PORTS = 8;
    /** llm-d's name for a picker Deployment's pod: DEPLOYMENT-REPLICASET_HASH-SUFFIX. */
    private static final Pattern DEPLOYMENT_POD = Pattern.compile("^(.+)-[a-z0-9]+-[a-z0-9]+$");

    public KubernetesPool {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        targetPorts = List.copyOf(targetPorts);
        if (selector != null && targetPorts.isEmpty()) {
            throw new IllegalArgumentException("a selected pool needs its target ports");
        }
    }

    /**
     * @param namespace as given, or null: then {@code NAMESPACE} from the environment (the chart sets it from the
     *                  pod), else {@code default}, as llm-d resolves it
     * @throws IllegalArgumentException for a group other than llm-d's
     */
    public static KubernetesPool inferencePool(String namespace, String name, String group, Map<String, String> env) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("--pool-name must not be empty");
        }
        if (group != null && !group.equals(GROUP)) {
            throw new IllegalArgumentException("--pool-group " + group + ": Homing reads InferencePool " + GROUP + "/"
                    + VERSION + " only, as llm-d does");
        }
        return new KubernetesPool(namespace(namespace, env), name.strip(), null, List.of());
    }

    /**
     * llm-d's standalone mode: the pods a selector picks, at the ports given. The replicas' shared name is their
     * Deployment's, read from {@code POD_NAME} as llm-d does; without it, {@code homing}.
     *
     * @throws IllegalArgumentException for a selector that is not one, or ports missing, out of range or over 8
     */
    public static KubernetesPool standalone(String namespace, String selector, String targetPorts,
                                            Map<String, String> env) {
        if (selector == null || selector.isBlank()) {
            throw new IllegalArgumentException("--endpoint-selector must not be empty (it would select every pod)");
        }
        LabelSelector s = LabelSelector.parse(selector);
        String pod = env.get("POD_NAME");
        Matcher m = pod == null ? null : DEPLOYMENT_POD.matcher(pod);
        String name = m != null && m.matches() ? m.group(1) : "homing";
        return new KubernetesPool(namespace(namespace, env), name, s, ports(targetPorts));
    }

    /** {@code 8000,8001}: 1 to 8 ports, a repeat dropped (llm-d's {@code removeDuplicatePorts}). */
    static List<Integer> ports(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("--endpoint-target-ports is needed with --endpoint-selector, e.g. "
                    + "--endpoint-target-ports 8000");
        }
        LinkedHashSet<Integer> ports = new LinkedHashSet<>();
        for (String p : text.split(",", -1)) {
            int port;
            try {
                port = Integer.parseInt(p.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--endpoint-target-ports: '" + p.strip() + "' is not a port number");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("--endpoint-target-ports: port must be 1 to 65535, got " + port);
            }
            ports.add(port);
        }
        if (ports.size() > MAX_TARGET_PORTS) {
            throw new IllegalArgumentException("--endpoint-target-ports: at most " + MAX_TARGET_PORTS + " ports, got "
                    + ports.size());
        }
        return new ArrayList<>(ports);
    }

    private static String namespace(String given, Map<String, String> env) {
        if (given != null && !given.isBlank()) {
            return given.strip();
        }
        String fromEnv = env.get("NAMESPACE");
        return fromEnv != null && !fromEnv.isBlank() ? fromEnv.strip() : "default";
    }

    /** Whether the pods come from an InferencePool (rather than a selector given outright). */
    public boolean followsInferencePool() {
        return selector == null;
    }

    /** llm-d's Lease for the replicas' election ({@code NewDefaultManager}): one per picker deployment. */
    public String leaseName() {
        return "epp-" + namespace + "-" + name + ".llm-d.ai";
    }

    /** What the log and the start line call it. */
    public String describe() {
        return followsInferencePool() ? "InferencePool " + namespace + "/" + name
                : "pods " + namespace + "/{" + selector + "} at ports " + targetPorts;
    }
}
