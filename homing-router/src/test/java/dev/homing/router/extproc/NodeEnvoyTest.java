package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the Node test finds its tools: what it refuses is named, before any Node script runs. */
class NodeEnvoyTest {

    @TempDir
    Path dir;

    private Path fakeNode(String version) throws Exception {
        Path node = dir.resolve("node");
        Files.writeString(node, "#!/bin/sh\necho " + version + "\n");
        Files.setPosixFilePermissions(node, PosixFilePermissions.fromString("rwxr-xr-x"));
        return node;
    }

    @Test
    void aNodeOlderThan18IsRefusedNamingTheVersionNeeded() throws Exception {
        fakeNode("v16.20.2");
        assertThatThrownBy(() -> NodeEnvoy.node(dir.toString())).isInstanceOf(AssertionError.class)
                .hasMessageContaining("is Node.js 'v16.20.2'").hasMessageContaining("needs Node.js >= 18");
        fakeNode("not node");
        assertThatThrownBy(() -> NodeEnvoy.node(dir.toString())).hasMessageContaining("needs Node.js >= 18");
    }

    @Test
    void aNode18OrNewerIsTaken() throws Exception {
        Path node = fakeNode("v18.0.0");
        assertThat(NodeEnvoy.node(dir + ":/nonexistent")).isEqualTo(node);
        fakeNode("v22.11.0");
        assertThat(NodeEnvoy.node(dir.toString())).isEqualTo(node);
    }

    @Test
    void noNodeOnThePathIsNamed() {
        assertThatThrownBy(() -> NodeEnvoy.node(dir.toString())).hasMessageContaining("node is not on the PATH");
    }

    @Test
    void aRelativeNodeDirIsTakenFromTheRepositorysRootAsHomingTestTakesIt() {
        Path root = NodeEnvoy.nodeDir("x", "/home/h").getParent();
        assertThat(root.resolve(".ci/node/package-lock.json")).isRegularFile();
        assertThat(NodeEnvoy.nodeDir("build/node", "/home/h")).isEqualTo(root.resolve("build/node"));
        assertThat(NodeEnvoy.nodeDir("/opt/node", "/home/h")).isEqualTo(Path.of("/opt/node"));
        assertThat(NodeEnvoy.nodeDir(null, "/home/h")).isEqualTo(Path.of("/home/h/.cache/homing/node"));
    }
}
