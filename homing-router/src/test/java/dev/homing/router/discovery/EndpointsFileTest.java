package dev.homing.router.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.config.ConfigException;
import dev.homing.core.endpoint.EndpointLoad;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.protocol.fixtures.LogCapture;
import dev.homing.router.config.ReloadOutcome;
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

    private final EndpointPool pool = new EndpointPool();
    private final List<String> removed = new ArrayList<>();

    private EndpointsFile start(String text) throws Exception {
        EndpointsFile endpoints = EndpointsFile.load(Files.writeString(dir.resolve("endpoints.yaml"), text));
        pool.onRemoved(e -> removed.add(e.name()));
        pool.setEndpoints(endpoints.current());
        return endpoints;
    }

    /** Writes {@code text} and polls until the change settles: the first read only notes it, the second acts. */
    private ReloadOutcome change(EndpointsFile endpoints, String text) throws Exception {
        Files.writeString(endpoints.file(), text);
        assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.SETTLING);
        return endpoints.reload(pool);
    }

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
        EndpointsFile endpoints = start(TWO);
        assertThat(names(pool)).containsExactly("p", "d");
        assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.UNCHANGED);

        assertThat(change(endpoints, TWO.replace("name: p, address: \"127.0.0.1:8001\"",
                "name: p2, address: \"127.0.0.1:8003\""))).isEqualTo(ReloadOutcome.APPLIED);
        assertThat(names(pool)).containsExactly("d", "p2");
        assertThat(removed).containsExactly("p");
        assertThat(pool.snapshot().endpoints().get(1).endpoint().label("llm-d.ai/role")).isEqualTo("prefill");

        try (LogCapture log = LogCapture.of(EndpointsFile.class)) {
            assertThat(change(endpoints, TWO + "- {name: d, address: \"127.0.0.1:8009\"}\n"))
                    .isEqualTo(ReloadOutcome.REFUSED);
            assertThat(names(pool)).containsExactly("d", "p2");
            assertThat(endpoints.reload(pool)).as("the same broken text is not used twice")
                    .isEqualTo(ReloadOutcome.UNCHANGED);
            assertThat(log.warnings()).singleElement().asString().startsWith("endpoints reload refused, running "
                    + "endpoints kept: " + endpoints.file() + ":4: endpoint name 'd' is already used at line 3");

            Files.delete(endpoints.file());
            endpoints.reload(pool);
            assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.REFUSED);
            assertThat(endpoints.reload(pool)).as("a missing file is refused once").isEqualTo(ReloadOutcome.UNCHANGED);
            assertThat(names(pool)).containsExactly("d", "p2");
            assertThat(log.warnings()).hasSize(2);
        }

        assertThat(change(endpoints, "endpoints: []\n")).isEqualTo(ReloadOutcome.APPLIED);
        assertThat(pool.snapshot().endpoints()).isEmpty();
        assertThat(endpoints.current()).isEmpty();
    }

    @Test
    void aListCaughtHalfWrittenIsNotUsed() throws Exception {
        String three = TWO + "- {name: e, address: \"127.0.0.1:8004\"}\n";
        EndpointsFile endpoints = start(three);

        Files.writeString(endpoints.file(), TWO); // the writer has put the first two entries back so far
        assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.SETTLING);
        Files.writeString(endpoints.file(), three);
        assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(endpoints.reload(pool)).isEqualTo(ReloadOutcome.UNCHANGED);
        assertThat(names(pool)).containsExactly("p", "d", "e");
        assertThat(removed).as("no pod dropped for a moment").isEmpty();
    }

    @Test
    void anEndpointWhoseLabelsAloneChangeIsUpdatedInPlaceNotRemoved() throws Exception {
        EndpointsFile endpoints = start(TWO);
        EndpointLoad load = pool.load("p");

        assertThat(change(endpoints, TWO.replace("llm-d.ai/role: prefill", "llm-d.ai/role: decode")))
                .isEqualTo(ReloadOutcome.APPLIED);
        assertThat(removed).as("a relabelled endpoint keeps what was learnt about it").isEmpty();
        assertThat(pool.snapshot().get("p").endpoint().label("llm-d.ai/role")).isEqualTo("decode");
        assertThat(pool.load("p")).isSameAs(load);
        assertThat(names(pool)).containsExactly("p", "d");

        assertThat(change(endpoints, TWO.replace("127.0.0.1:8001", "127.0.0.1:8011")))
                .isEqualTo(ReloadOutcome.APPLIED);
        assertThat(removed).as("a new address is another pod").containsExactly("p");
        assertThat(pool.snapshot().get("p").endpoint().address()).isEqualTo("127.0.0.1:8011");
    }

    private static List<String> names(EndpointPool pool) {
        return pool.snapshot().endpoints().stream().map(EndpointState::name).toList();
    }
}
