package dev.homing.core.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.Pools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointPoolTest {

    private final EndpointPool pool = new EndpointPool();
    private final List<String> removed = new ArrayList<>();

    EndpointPoolTest() {
        pool.onRemoved(e -> removed.add(e.name() + "@" + e.address()));
    }

    @Test
    void anEndpointWhoseLabelsAloneChangeStaysWithWhatWasLearntAndCarriesItsNewLabels() {
        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.1", 8000, Map.of("llm-d.ai/role", "prefill")),
                new Endpoint("b", "10.0.0.2", 8000)));
        Pools.scrape(pool, "a", Pools.metrics(3, 1, 0.5));
        EndpointLoad load = pool.load("a");
        Lease held = load.acquire(10, 20);
        long version = pool.snapshot().version();

        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.1", 8000, Map.of("llm-d.ai/role", "decode")),
                new Endpoint("b", "10.0.0.2", 8000)));

        assertThat(removed).as("nobody is told it left").isEmpty();
        EndpointState a = pool.snapshot().get("a");
        assertThat(a.endpoint().label("llm-d.ai/role")).isEqualTo("decode");
        assertThat(a.metrics()).isEqualTo(Pools.metrics(3, 1, 0.5));
        assertThat(a.load()).isSameAs(load);
        assertThat(a.inFlightRequests()).isEqualTo(1);
        assertThat(pool.snapshot().version()).isGreaterThan(version);
        assertThat(pool.snapshot().endpoints()).extracting(EndpointState::name).containsExactly("a", "b");
        held.close();
    }

    @Test
    void anEndpointWhoseAddressChangesIsRemovedAnnouncedAndAddedAsNew() {
        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.1", 8000)));
        Pools.scrape(pool, "a", Pools.metrics(3, 1, 0.5));
        EndpointLoad load = pool.load("a");

        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.1", 8001)));
        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.9", 8001)));

        assertThat(removed).containsExactly("a@10.0.0.1:8000", "a@10.0.0.1:8001");
        EndpointState a = pool.snapshot().get("a");
        assertThat(a.endpoint().address()).isEqualTo("10.0.0.9:8001");
        assertThat(a.metrics().known()).isFalse();
        assertThat(a.load()).isNotSameAs(load);
    }

    @Test
    void anEndpointThatLeavesIsAnnounced() {
        pool.setEndpoints(List.of(new Endpoint("a", "10.0.0.1", 8000), new Endpoint("b", "10.0.0.2", 8000)));
        pool.setEndpoints(List.of(new Endpoint("b", "10.0.0.2", 8000)));
        assertThat(removed).containsExactly("a@10.0.0.1:8000");
        assertThat(pool.load("a")).isNull();
    }
}
