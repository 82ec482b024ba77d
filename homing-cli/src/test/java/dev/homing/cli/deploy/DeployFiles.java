package dev.homing.cli.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's deploy/ lies, found from the test's working directory (Maven runs each module in its own). */
final class DeployFiles {

    private DeployFiles() {
    }

    /** The repository's root: the first directory upwards that holds deploy/base/kustomization.yaml. */
    static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("deploy/base/kustomization.yaml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no deploy/base/kustomization.yaml above " + Path.of("").toAbsolutePath());
    }

    static Path deploy() {
        return repoRoot().resolve("deploy");
    }
}
