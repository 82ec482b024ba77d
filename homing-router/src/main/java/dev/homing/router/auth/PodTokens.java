package dev.homing.router.auth;

import dev.homing.core.config.ConfigException;
import java.util.HashMap;
import java.util.Map;

/**
 * The tokens the pods ask for ({@code vllm serve --api-key}), sent to each as {@code Authorization: Bearer} in place
 * of the client's: lines {@code <pod> <token>}, {@code * <token>} for every pod not named; blank lines and lines
 * starting with {@code #} skipped.
 */
public final class PodTokens {

    private final Map<String, String> byPod;
    private final String others;

    private PodTokens(Map<String, String> byPod, String others) {
        this.byPod = Map.copyOf(byPod);
        this.others = others;
    }

    /** @throws ConfigException naming {@code source} and the line that is not {@code <pod> <token>} */
    public static PodTokens parse(String source, String text) throws ConfigException {
        Map<String, String> byPod = new HashMap<>();
        String others = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !BearerTokens.printable(parts[1])) {
                throw new ConfigException(source, i + 1, "expected '<pod> <token>' or '* <token>'");
            }
            if (parts[0].equals("*")) {
                others = parts[1];
            } else if (byPod.put(parts[0], parts[1]) != null) {
                throw new ConfigException(source, i + 1, "pod " + parts[0] + " is named twice");
            }
        }
        if (byPod.isEmpty() && others == null) {
            throw new ConfigException(source, 0, "no token");
        }
        return new PodTokens(byPod, others);
    }

    /** The token to send to the pod, or null when none is set for it. */
    public String tokenFor(String pod) {
        String t = byPod.get(pod);
        return t != null ? t : others;
    }
}
