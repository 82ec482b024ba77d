package dev.homing.cli.cluster;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Kubernetes-like pod names for local pods, {@code <deployment>-<pod-template-hash>-<suffix>}, so dashboards and
 * logs read as they would in a cluster: {@code qwen2-5-0-5b-instruct-7c9d8f6b5d-x2k4p}.
 */
public final class PodNames {

    /** Kubernetes' alphabet for generated names: no vowels, no look-alikes. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int MAX_DEPLOYMENT = 40;

    private final String deployment;
    private final String templateHash;
    private final RandomGenerator random;
    private final Set<String> used = new HashSet<>();

    public PodNames(String model, RandomGenerator random) {
        this(model, null, random);
    }

    /**
     * Names for one role's pods, as llm-d's P/D deployments name them: {@code qwen2-5-0-5b-instruct-prefill-...}.
     *
     * @param role appended to the deployment name, or null for none
     */
    public PodNames(String model, String role, RandomGenerator random) {
        this.random = random;
        String base = deploymentName(model);
        if (role != null) {
            int room = MAX_DEPLOYMENT - role.length() - 1;
            base = (base.length() > room ? base.substring(0, room).replaceAll("-+$", "") : base) + "-" + role;
        }
        this.deployment = base;
        this.templateHash = randomString(10);
    }

    /** The deployment name for a model: its last path segment, lower-cased, non-alphanumerics as dashes. */
    static String deploymentName(String model) {
        String base = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String name = base.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (name.isEmpty()) {
            name = "vllm";
        }
        return name.length() > MAX_DEPLOYMENT ? name.substring(0, MAX_DEPLOYMENT).replaceAll("-+$", "") : name;
    }

    public String next() {
        while (true) {
            String name = deployment + "-" + templateHash + "-" + randomString(5);
            if (used.add(name)) {
                return name;
            }
        }
    }

    private String randomString(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }
}
