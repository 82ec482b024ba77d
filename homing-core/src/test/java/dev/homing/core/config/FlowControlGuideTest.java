package dev.homing.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.endpoint.EndpointMetrics;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.flowcontrol.BandSettings;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.flowcontrol.FlowController;
import dev.homing.core.flowcontrol.FlowListener;
import dev.homing.core.flowcontrol.Ticket;
import dev.homing.core.flowcontrol.Waiter;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.core.plugins.flowcontrol.FcfsOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.GlobalStrictFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.StaticUsageLimitPolicy;
import dev.homing.core.plugins.saturation.ConcurrencyDetector;
import dev.homing.core.plugins.saturation.UtilizationDetector;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The configurations in GIE's flow-control guide (a verbatim copy, see {@code configs/gie/README.md}) load and behave
 * as the guide says.
 */
class FlowControlGuideTest {

    /** A fragment's head: the guide's blocks 2 to 4 are parts of an EndpointPickerConfig with the gate on. */
    private static final String HEAD = """
            apiVersion: llm-d.ai/v1alpha1
            kind: EndpointPickerConfig
            featureGates: [flowControl]
            """;

    private final FakeTicker ticker = new FakeTicker();
    private final EndpointPool pool = Pools.of(2);

    private static List<String> blocks() throws Exception {
        String guide;
        try (InputStream in = FlowControlGuideTest.class.getResourceAsStream("/configs/gie/flow-control-guide.md")) {
            guide = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(guide);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private ResolvedConfig load(String text) throws Exception {
        return new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, "flow-control-guide.md"),
                new PluginContext(ticker, new SplittableRandom(1), pool));
    }

    @Test
    void theGuideHasFourConfigurations() throws Exception {
        assertThat(blocks()).hasSize(4);
    }

    @Test
    void enablingTheGateTurnsFlowControlOnWithLlmDsDefaults() throws Exception {
        ResolvedConfig r = load(blocks().get(0)); // as written, apiVersion and all
        assertThat(r.policy().flowControlled()).isTrue();
        FlowControlSettings f = r.flowControl();
        assertThat(f.maxBytes()).isZero();
        assertThat(f.maxRequests()).isZero();
        assertThat(f.defaultTtlNanos()).isZero();
        assertThat(f.bands()).isEmpty();
        BandSettings band = f.defaultBand();
        assertThat(band.maxBytes()).isEqualTo(1_000_000_000L);
        assertThat(band.maxRequests()).isZero();
        assertThat(band.fairness()).isInstanceOf(GlobalStrictFairnessPolicy.class);
        assertThat(band.ordering()).isInstanceOf(FcfsOrderingPolicy.class);
        assertThat(f.usageLimit()).isInstanceOf(StaticUsageLimitPolicy.class);
        assertThat(f.eviction()).isFalse();
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("config.x-k8s.io/v1alpha1"));
        assertThat(r.describe()).contains("admission: flow control, TTL none");
    }

    @Test
    void theUtilizationDetectorsThresholdsDecideWhenRequestsQueue() throws Exception {
        ResolvedConfig r = load(HEAD + blocks().get(1));
        SaturationDetector d = r.policy().saturationDetector();
        assertThat(d).isInstanceOf(UtilizationDetector.class);
        FlowController c = new FlowController(r.flowControl(), ticker, FlowListener.NONE);
        List<String> admitted = new ArrayList<>();
        scrape(1, 0.5); // one request queued per server, half the KV cache: below 2 and 0.85
        assertThat(c.enqueue(Requests.completion("a"), 10, waiter("a", admitted), saturation(d)).admittedAtOnce())
                .isTrue();
        scrape(2, 0.5); // "queueDepthThreshold: 2": saturated, EPP queueing engages
        assertThat(c.enqueue(Requests.completion("b"), 10, waiter("b", admitted), saturation(d)).admittedAtOnce())
                .isFalse();
        assertThat(c.dispatch(() -> saturation(d))).isZero();
        scrape(0, 0.86); // "kvCacheUtilThreshold: 0.85"
        assertThat(c.dispatch(() -> saturation(d))).isZero();
        scrape(0, 0.84);
        assertThat(c.dispatch(() -> saturation(d))).isEqualTo(1);
        assertThat(admitted).containsExactly("b");
    }

    @Test
    void theConcurrencyDetectorCountsRequestsInFlightAgainst110() throws Exception {
        ResolvedConfig r = load(HEAD + blocks().get(2));
        SaturationDetector d = r.policy().saturationDetector();
        assertThat(d).isInstanceOf(ConcurrencyDetector.class);
        List<EndpointState> states = pool.snapshot().endpoints();
        List<AutoCloseable> leases = new ArrayList<>();
        for (EndpointState e : states) {
            for (int i = 0; i < 109; i++) {
                leases.add(e.load().acquire(10, 0, 20));
            }
        }
        assertThat(d.saturation(states, ticker.nanos())).isLessThan(1.0);
        for (EndpointState e : states) {
            leases.add(e.load().acquire(10, 0, 20));
        }
        assertThat(d.saturation(states, ticker.nanos())).isGreaterThanOrEqualTo(1.0);
        for (AutoCloseable l : leases) {
            l.close();
        }
    }

    @Test
    void priorityBandsAndCapacityBehaveAsTheGuideSays() throws Exception {
        ResolvedConfig r = load(HEAD + blocks().get(3));
        FlowControlSettings f = r.flowControl();
        assertThat(f.maxBytes()).isEqualTo(1_000_000_000L);
        assertThat(f.defaultTtlNanos()).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(f.bands()).containsOnlyKeys(100);
        assertThat(f.bands().get(100).maxBytes()).isEqualTo(500_000_000L);
        FlowController c = new FlowController(f, ticker, FlowListener.NONE);
        List<String> log = new ArrayList<>();
        // "always dispatch all buffered requests from higher-priority queues before ... lower-priority queues", and
        // negative priorities "are not immediately rejected upon saturation but are held in their own ... queues"
        for (String[] a : new String[][] {{"bg", "-1"}, {"std", "0"}, {"vip", "100"}, {"bg2", "-1"}, {"vip2", "100"}}) {
            Ticket t = c.enqueue(Requests.completion(a[0]).withPriority(Integer.parseInt(a[1])), 100,
                    waiter(a[0], log), 1.0);
            assertThat(t.refusal()).isNull();
        }
        assertThat(c.dispatch(() -> 0.0)).isEqualTo(5);
        assertThat(log).containsExactly("vip", "vip2", "std", "bg", "bg2");
        // "maxBytes: 500000000 # 500MB HTTP payload limit for Priority 100"; 1 GB in all
        assertThat(c.enqueue(Requests.completion("big").withPriority(100), 600_000_000L, waiter("big", log), 1.0)
                .refusal()).isNotNull();
        assertThat(c.enqueue(Requests.completion("ok").withPriority(0), 600_000_000L, waiter("ok", log), 1.0)
                .refusal()).isNull();
        SchedulingException full = c.enqueue(Requests.completion("over").withPriority(-1), 500_000_000L,
                waiter("over", log), 1.0).refusal();
        assertThat(full.status()).isEqualTo(429);
        // "defaultRequestTTL: 30s": a request still waiting after 30 s is dropped
        ticker.advance(Duration.ofSeconds(29));
        assertThat(c.expire()).isZero();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(c.expire()).isEqualTo(1);
        assertThat(log).last().isEqualTo("503 ok");
    }

    private Waiter waiter(String id, List<String> log) {
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

    private void scrape(int waiting, double kv) {
        for (EndpointState e : pool.snapshot().endpoints()) {
            Pools.scrape(pool, e.name(), new EndpointMetrics(waiting, 1, kv, 16, 1000, Set.of(), Set.of(), -1,
                    ticker.nanos()));
        }
    }

    private double saturation(SaturationDetector d) {
        return d.saturation(pool.snapshot().endpoints(), ticker.nanos());
    }
}
