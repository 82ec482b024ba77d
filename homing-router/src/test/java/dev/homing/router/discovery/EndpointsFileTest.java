package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.EndpointLoad;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndpointsFileTest {

    private static final String TWO = """
            endpoints:
            - {name: p, address: "127.0.0.1:8001", labels: {llm-d.ai/role: prefill}}
            - {name: d, address: "127.0.0.1:8002", labels: {llm-d.ai/role: decode}}
            """;

    @TempDir
    Path dir;

    @Test
    void aBrokenFileStopsStartUpNamingItsLine() throws Exception {
        Path file = Files.writeString(dir.resolve("endpoints.yaml"), "endpoints:\n- {name: p, address: nowhere}\n");
        assertThatThrownBy(() -> EndpointsFile.load(file)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(file + ":2: endpoints[0]: expected host:port");
        assertThatThrownBy(() -> EndpointsFile.load(dir.resolve("missing.yaml"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing.yaml: cannot be read");
    }

    @Test
    void changesJoinAndLeaveThroughThePoolAndBrokenChangesAreRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("endpoints.yaml"), TWO);
        EndpointsFile endpoints = EndpointsFile.load(file);
        EndpointPool pool = new EndpointPool();
        List<String> removed = new ArrayList<>();
        pool.onRemoved(e -> removed.add(e.name()));
        pool.setEndpoints(endpoints.current());
        assertThat(names(pool)).containsExactly("p", "d");
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.UNCHANGED);

        Files.writeString(file, TWO.replace("name: p, address: \"127.0.0.1:8001\"", "name: p2, address: \"127.0.0.1:8003\""));
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.APPLIED);
        assertThat(names(pool)).containsExactly("d", "p2");
        assertThat(removed).containsExactly("p");
        assertThat(pool.snapshot().endpoints().get(1).endpoint().label("llm-d.ai/role")).isEqualTo("prefill");

        Files.writeString(file, TWO + "- {name: d, address: \"127.0.0.1:8009\"}\n");
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.REFUSED);
        assertThat(names(pool)).containsExactly("d", "p2");
        assertThat(endpoints.reload(pool)).as("the same broken text is not read twice").isEqualTo(EndpointsFile.Reload.UNCHANGED);

        Files.delete(file);
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.REFUSED);
        assertThat(names(pool)).containsExactly("d", "p2");

        Files.writeString(file, "endpoints: []\n");
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.APPLIED);
        assertThat(pool.snapshot().endpoints()).isEmpty();
        assertThat(endpoints.current()).isEmpty();
    }

    @Test
    void anEndpointWhoseLabelsAloneChangeIsUpdatedInPlaceNotRemoved() throws Exception {
        Path file = Files.writeString(dir.resolve("endpoints.yaml"), TWO);
        EndpointsFile endpoints = EndpointsFile.load(file);
        EndpointPool pool = new EndpointPool();
        List<String> removed = new ArrayList<>();
        pool.onRemoved(e -> removed.add(e.name()));
        pool.setEndpoints(endpoints.current());
        EndpointLoad load = pool.load("p");

        Files.writeString(file, TWO.replace("llm-d.ai/role: prefill", "llm-d.ai/role: decode"));
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.APPLIED);
        assertThat(removed).as("a relabelled endpoint keeps what was learnt about it").isEmpty();
        assertThat(pool.snapshot().get("p").endpoint().label("llm-d.ai/role")).isEqualTo("decode");
        assertThat(pool.load("p")).isSameAs(load);
        assertThat(names(pool)).containsExactly("p", "d");

        Files.writeString(file, TWO.replace("127.0.0.1:8001", "127.0.0.1:8011"));
        assertThat(endpoints.reload(pool)).isEqualTo(EndpointsFile.Reload.APPLIED);
        assertThat(removed).as("a new address is another pod").containsExactly("p");
        assertThat(pool.snapshot().get("p").endpoint().address()).isEqualTo("127.0.0.1:8011");
    }

    private static List<String> names(EndpointPool pool) {
        return pool.snapshot().endpoints().stream().map(EndpointState::name).toList();
    }
}
