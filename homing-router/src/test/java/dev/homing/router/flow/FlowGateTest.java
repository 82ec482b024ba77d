package dev.homing.router.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.openai.ApiKind;
import dev.homing.protocol.openai.RequestFormatException;
import dev.homing.protocol.openai.RequestParser;
import dev.homing.router.SystemTicker;
import dev.homing.router.metrics.RouterMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The router's flow gate: saturation over the usable endpoints, its dispatcher, and turning the gate off. */
class FlowGateTest {

    private static final String GATED = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            featureGates: [flowControl]
            plugins:
            - type: concurrency-detector
              parameters: {maxConcurrency: 1}
            saturationDetector: {pluginRef: concurrency-detector}
            """;

    private final EndpointPool pool = new EndpointPool();
    private final List<String> log = new CopyOnWriteArrayList<>();

    private ResolvedConfig resolve(String yaml) throws Exception {
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(yaml, "t.yaml"),
                new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(1), pool));
    }

    private static InferenceRequest request(String id) {
        try {
            return new InferenceRequest(id, RequestParser.parse(ApiKind.COMPLETIONS,
                    "{\"model\":\"m\",\"prompt\":\"p\"}".getBytes(StandardCharsets.UTF_8)), Map.of());
        } catch (RequestFormatException e) {
            throw new AssertionError(e);
        }
    }

    private Waiter waiter(String id) {
        return new Waiter() {
            @Override
            public void admitted() {
                log.add(id);
            }

            @Override
            public void refused(SchedulingException why) {
                log.add(why.status() + " " + id);
            }
        };
    }

    @Test
    void anEmptyOrAllDownPoolIsSaturatedSoRequestsWaitForAnEndpoint() throws Exception {
        ResolvedConfig c = resolve(GATED);
        boolean[] up = {false};
        try (FlowGate gate = new FlowGate(pool, name -> up[0], c::policy, SystemTicker.INSTANCE,
                new RouterMetrics("p", pool).flowControl(List::of))) {
            gate.configure(c.flowControl());
            gate.start();
            assertThat(gate.saturation()).isEqualTo(1.0); // no endpoints at all
            pool.setEndpoints(List.of(new Endpoint("pod-0", "127.0.0.1", 8000)));
            assertThat(gate.saturation()).isEqualTo(1.0); // one, but pod health says it may not be used
            Ticket t = gate.enqueue(request("a"), 10, waiter("a"));
            assertThat(t.admittedAtOnce()).isFalse();
            assertThat(gate.flows()).singleElement().satisfies(f -> assertThat(f.requests()).isEqualTo(1));
            up[0] = true; // it comes up: the dispatcher notices within its next cycles
            await().atMost(Duration.ofSeconds(2)).until(() -> log.contains("a"));
            t.end();
        }
    }

    @Test
    void turningTheGateOffAdmitsWhatWaitsAndLetsLaterRequestsThrough() throws Exception {
        ResolvedConfig c = resolve(GATED);
        try (FlowGate gate = new FlowGate(pool, name -> true, c::policy, SystemTicker.INSTANCE,
                new RouterMetrics("p", pool).flowControl(List::of))) {
            gate.configure(c.flowControl());
            assertThat(gate.active()).isTrue();
            gate.enqueue(request("w1"), 10, waiter("w1"));
            gate.enqueue(request("w2"), 10, waiter("w2"));
            assertThat(log).isEmpty(); // no endpoints: saturated, and no dispatcher started
            gate.configure(null);
            assertThat(log).containsExactly("w1", "w2");
            assertThat(gate.active()).isFalse();
            assertThat(gate.enqueue(request("later"), 10, waiter("later"))).isNull();
        }
    }

    @Test
    void closingRefusesWhatStillWaits() throws Exception {
        ResolvedConfig c = resolve(GATED);
        FlowGate gate = new FlowGate(pool, name -> true, c::policy, SystemTicker.INSTANCE,
                new RouterMetrics("p", pool).flowControl(List::of));
        gate.configure(c.flowControl());
        gate.start();
        gate.enqueue(request("w"), 10, waiter("w"));
        gate.close();
        assertThat(log).containsExactly("503 w");
    }
}
