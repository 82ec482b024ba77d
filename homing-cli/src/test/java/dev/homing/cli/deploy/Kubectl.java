package dev.homing.cli.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's kubectl, whose built-in kustomize renders deploy/. Debian's kubectl 1.20 carries kustomize 2.0, which
 * lacks {@code patches} and {@code labels}: an older one than {@link #MIN_KUSTOMIZE} is refused, loudly, as is none.
 * {@code HOMING_KUBECTL} names another binary.
 */
final class Kubectl {

    static final Path BINARY = Path.of(System.getenv().getOrDefault("HOMING_KUBECTL", "/usr/bin/kubectl"));
    /** The first kustomize with {@code labels} (5.0) and kubectl's first to carry it (1.27). */
    static final int[] MIN_KUSTOMIZE = {5, 0};
    static final int[] MIN_KUBECTL = {1, 27};

    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)");

    private Kubectl() {
    }

    /** {@code kubectl version --client}, checked: "kubectl v1.32.4, kustomize v5.5.0". */
    static String checkedVersion() throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: the deploy/ tests need kubectl >= 1.27 (kustomize >= 5)");
        }
        JsonNode v = new ObjectMapper().readTree(run(List.of(BINARY.toString(), "version", "--client", "-o", "json")));
        String kubectl = v.path("clientVersion").path("gitVersion").asText();
        String kustomize = v.path("kustomizeVersion").asText();
        requireAtLeast("kubectl", kubectl, MIN_KUBECTL);
        requireAtLeast("kustomize", kustomize, MIN_KUSTOMIZE);
        return "kubectl " + kubectl + ", kustomize " + kustomize + " (" + BINARY + ")";
    }

    /** What {@code kubectl kustomize DIR} prints. */
    static String kustomize(Path dir) throws IOException, InterruptedException {
        return run(List.of(BINARY.toString(), "kustomize", dir.toString()));
    }

    private static void requireAtLeast(String what, String version, int[] min) {
        Matcher m = VERSION.matcher(version);
        if (!m.lookingAt()) {
            throw new AssertionError(BINARY + ": cannot read the " + what + " version from '" + version + "'");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major < min[0] || (major == min[0] && minor < min[1])) {
            throw new AssertionError(BINARY + ": " + what + " " + version + " is too old, the deploy/ tests need "
                    + min[0] + "." + min[1] + " or newer");
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Path err = Files.createTempFile("kubectl", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ":\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
