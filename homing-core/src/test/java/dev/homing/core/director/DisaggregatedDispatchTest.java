package dev.homing.core.director;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** llm-d's P/D config, end to end through the director: decode is the target, the prefiller is told and credited. */
class DisaggregatedDispatchTest {

    private static Director director(EndpointPool pool) throws Exception {
        String yaml;
        try (InputStream in = DisaggregatedDispatchTest.class.getResourceAsStream("/configs/llm-d/pd.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        FakeTicker ticker = new FakeTicker();
        RoutingPolicy policy = new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(yaml, "pd.yaml"),
                new PluginContext(ticker, new SplittableRandom(1), pool)).policy();
        return new Director(pool, policy, ticker);
    }

    private static EndpointPool pool(String... roles) {
        EndpointPool pool = new EndpointPool();
        List<Endpoint> endpoints = new java.util.ArrayList<>();
        for (int i = 0; i < roles.length; i++) {
            endpoints.add(new Endpoint(roles[i] + "-" + i, "10.0.0." + (i + 1), 8000, Map.of("llm-d.ai/role", roles[i])));
        }
        pool.setEndpoints(endpoints);
        for (Endpoint e : endpoints) {
            scrape(pool, e.name(), metrics(0, 0, 0.1));
        }
        return pool;
    }

    @Test
    void longUncachedPromptsArePrefilledRemotely() throws Exception {
        EndpointPool pool = pool("prefill", "prefill", "decode", "decode");
        Director director = director(pool);
        Dispatch d = director.dispatch(Requests.completion(Requests.prose(5, 300)));
        assertThat(d.target().endpoint().label("llm-d.ai/role")).isEqualTo("decode");
        String prefiller = d.cycle().upstreamHeaders().get("x-prefiller-host-port");
        assertThat(prefiller).startsWith("10.0.0.").endsWith(":8000");
        assertThat(d.result().prefillTarget().endpoint().address()).isEqualTo(prefiller);
        assertThat(pool.load(d.target().name()).inFlightRequests()).isEqualTo(1);
        assertThat(pool.load(d.result().prefillTarget().name()).inFlightRequests()).isEqualTo(1);
        d.close();
        assertThat(pool.snapshot().endpoints()).allSatisfy(e -> assertThat(e.inFlightRequests()).isZero());
    }

    @Test
    void withNoPrefillPodTheRequestIsServedByDecodeAlone() throws Exception {
        EndpointPool pool = pool("decode", "decode");
        try (Dispatch d = director(pool).dispatch(Requests.completion(Requests.prose(6, 300)))) {
            assertThat(d.target().name()).startsWith("decode-");
            assertThat(d.result().prefillTarget()).isNull();
            assertThat(d.cycle().upstreamHeaders()).doesNotContainKey("x-prefiller-host-port");
        }
    }

    @Test
    void shortPromptsStayLocal() throws Exception {
        EndpointPool pool = pool("prefill", "decode");
        try (Dispatch d = director(pool).dispatch(Requests.completion("hi"))) {
            assertThat(d.result().prefillTarget()).isNull(); // 16 uncached tokens needed to disaggregate
        }
    }
}
