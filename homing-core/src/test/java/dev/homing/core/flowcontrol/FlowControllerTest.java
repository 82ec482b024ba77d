package dev.homing.core.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.flowcontrol.FairnessPolicy;
import dev.homing.core.framework.flowcontrol.QueuedRequest;
import dev.homing.core.framework.flowcontrol.UsageLimitPolicy;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.plugins.flowcontrol.EdfOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.FcfsOrderingPolicy;
import dev.homing.core.plugins.flowcontrol.GlobalStrictFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.PriorityThenTimeEvictionOrderPolicy;
import dev.homing.core.plugins.flowcontrol.RoundRobinFairnessPolicy;
import dev.homing.core.plugins.flowcontrol.SheddableEvictionFilter;
import dev.homing.core.plugins.flowcontrol.StaticUsageLimitPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The flow controller on hand-made arrival sequences: bands, fairness, ordering, limits, TTL, cancel, eviction. */
class FlowControllerTest {

    private static final double SATURATED = 1.0;
    private static final double IDLE = 0.0;

    private final FakeTicker ticker = new FakeTicker();
    private final List<String> log = new ArrayList<>();
    private final List<String> outcomes = new ArrayList<>();
    private final FlowListener listener = new FlowListener() {
        @Override
        public void left(QueuedRequest request, String outcome, long queuedNanos) {
            outcomes.add(request.request().requestId() + ":" + outcome + ":" + queuedNanos / 1_000_000);
        }
    };

    private static BandSettings band(FairnessPolicy fairness) {
        return new BandSettings(BandSettings.DEFAULT_MAX_BYTES, 0, new FcfsOrderingPolicy("fcfs"), fairness);
    }

    private static FlowControlSettings settings(Map<Integer, BandSettings> bands, BandSettings template,
                                                UsageLimitPolicy limit, long ttlNanos, boolean eviction) {
        return new FlowControlSettings(0, 0, ttlNanos, bands, template, null, limit, eviction,
                new SheddableEvictionFilter("f"), new PriorityThenTimeEvictionOrderPolicy("o"));
    }

    private static FlowControlSettings plain() {
        return settings(Map.of(), band(new GlobalStrictFairnessPolicy("gs")), new StaticUsageLimitPolicy("s", 1.0),
                0, false);
    }

    private FlowController controller(FlowControlSettings s) {
        return new FlowController(s, ticker, listener);
    }

    /** A waiter that logs what happened to request {@code id}. */
    private final class Logged implements Waiter {
        final String id;
        SchedulingException refused;
        boolean evicted;

        Logged(String id) {
            this.id = id;
        }

        @Override
        public void admitted() {
            log.add(id);
        }

        @Override
        public void refused(SchedulingException why) {
            refused = why;
            log.add("x" + id);
        }

        @Override
        public void evict() {
            evicted = true;
            log.add("evict " + id);
        }
    }

    private static InferenceRequest request(String id, int priority, String flow) {
        return new InferenceRequest(id, Requests.completion("p").fields(),
                flow == null ? Map.of() : Map.of("x-gateway-inference-fairness-id", flow)).withPriority(priority);
    }

    private Ticket enqueue(FlowController c, String id, int priority, String flow, double sat) {
        ticker.advance(Duration.ofMillis(1));
        return c.enqueue(request(id, priority, flow), 100, new Logged(id), sat);
    }

    @Test
    void bandsLeaveInStrictPriorityOrderAndArrivalOrderWithinABand() {
        FlowController c = controller(plain());
        String[][] arrivals = {{"a", "-1"}, {"b", "0"}, {"c", "10"}, {"d", "0"}, {"e", "-1"}, {"f", "10"}, {"g", "5"}};
        for (String[] a : arrivals) {
            assertThat(enqueue(c, a[0], Integer.parseInt(a[1]), null, SATURATED).admittedAtOnce()).isFalse();
        }
        assertThat(c.queued()).isEqualTo(7);
        assertThat(c.dispatch(() -> IDLE)).isEqualTo(7);
        assertThat(log).containsExactly("c", "f", "g", "b", "d", "a", "e");
        assertThat(c.queued()).isZero();
        assertThat(c.queuedBytes()).isZero();
    }

    @Test
    void dispatchStopsWhenTheAdmittedLoadSaturatesThePool() {
        FlowController c = controller(plain());
        for (int i = 0; i < 6; i++) {
            enqueue(c, "r" + i, 0, null, SATURATED);
        }
        // each admitted request adds a third of the pool's capacity, as the director's load credit does
        assertThat(c.dispatch(() -> log.size() / 3.0)).isEqualTo(3);
        assertThat(log).containsExactly("r0", "r1", "r2");
        assertThat(c.queued()).isEqualTo(3);
    }

    @Test
    void aHeldBackBandHoldsEveryLowerBandBackToo() {
        // priority 10 may fill the pool; priority 0 only to half; -1 (were it asked) to all of it
        UsageLimitPolicy tiered = new Tiered(p -> p >= 10 ? 1.0 : p == 0 ? 0.5 : 1.0);
        FlowController c = controller(settings(Map.of(), band(new GlobalStrictFairnessPolicy("gs")), tiered, 0,
                false));
        enqueue(c, "low", -1, null, SATURATED);
        enqueue(c, "mid", 0, null, SATURATED);
        enqueue(c, "top", 10, null, SATURATED);
        assertThat(c.dispatch(() -> 0.7)).isEqualTo(1);
        assertThat(log).containsExactly("top"); // "mid" is held at 0.7 >= 0.5, and "low" may not pass it
        assertThat(c.dispatch(() -> 0.4)).isEqualTo(2);
        assertThat(log).containsExactly("top", "mid", "low");
    }

    @Test
    void roundRobinGivesEachBackloggedFlowOneTurnInFairnessIdOrder() {
        FlowController c = controller(settings(Map.of(), band(new RoundRobinFairnessPolicy("rr")),
                new StaticUsageLimitPolicy("s", 1.0), 0, false));
        for (int i = 0; i < 6; i++) {
            enqueue(c, "a" + i, 0, "alpha", SATURATED); // the heavy flow arrives first
        }
        enqueue(c, "b0", 0, "beta", SATURATED);
        enqueue(c, "b1", 0, "beta", SATURATED);
        enqueue(c, "c0", 0, "gamma", SATURATED);
        enqueue(c, "c1", 0, "gamma", SATURATED);
        enqueue(c, "c2", 0, "gamma", SATURATED);
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("a0", "b0", "c0", "a1", "b1", "c1", "a2", "c2", "a3", "a4", "a5");
    }

    @Test
    void roundRobinsTurnSurvivesAFlowEmptyingAndComingBack() {
        FlowController c = controller(settings(Map.of(), band(new RoundRobinFairnessPolicy("rr")),
                new StaticUsageLimitPolicy("s", 1.0), 0, false));
        enqueue(c, "a0", 0, "a", SATURATED);
        enqueue(c, "a1", 0, "a", SATURATED);
        enqueue(c, "b0", 0, "b", SATURATED);
        enqueue(c, "c0", 0, "c", SATURATED);
        assertThat(c.dispatch(() -> log.isEmpty() ? IDLE : SATURATED)).isEqualTo(1); // a0; "b" is next
        assertThat(c.dispatch(() -> log.size() < 2 ? IDLE : SATURATED)).isEqualTo(1); // b0 leaves, flow b empties
        enqueue(c, "b1", 0, "b", SATURATED); // b returns, but its turn has passed: c goes next, then a, then b
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("a0", "b0", "c0", "a1", "b1");
    }

    @Test
    void globalStrictServesTheBandsOldestRequestWhateverItsFlow() {
        FlowController c = controller(plain());
        enqueue(c, "1", 0, "x", SATURATED);
        enqueue(c, "2", 0, "y", SATURATED);
        enqueue(c, "3", 0, "x", SATURATED);
        enqueue(c, "4", 0, "z", SATURATED);
        enqueue(c, "5", 0, "y", SATURATED);
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("1", "2", "3", "4", "5");
    }

    @Test
    void edfOrdersByDeadlineAndPutsRequestsWithoutADeadlineLast() {
        var order = new EdfOrderingPolicy("edf").order();
        QueuedRequest early = queued(100, 50, 3);  // deadline 150
        QueuedRequest late = queued(10, 500, 1);   // deadline 510
        QueuedRequest none = queued(0, 0, 0);      // no TTL
        QueuedRequest tie = queued(140, 10, 2);    // deadline 150, enqueued later than "early"
        List<QueuedRequest> sorted = new ArrayList<>(List.of(none, late, tie, early));
        sorted.sort(order);
        assertThat(sorted).containsExactly(early, tie, late, none);
    }

    @Test
    void edfInABandServesTheNearestDeadlineFirst() {
        // one TTL for all requests: EDF is arrival order, the deadline being arrival plus the same TTL
        FlowController c = controller(settings(Map.of(), new BandSettings(BandSettings.DEFAULT_MAX_BYTES, 0,
                new EdfOrderingPolicy("edf"), new GlobalStrictFairnessPolicy("gs")), new StaticUsageLimitPolicy("s",
                1.0), Duration.ofSeconds(10).toNanos(), false));
        enqueue(c, "1", 0, "b", SATURATED);
        enqueue(c, "2", 0, "a", SATURATED);
        enqueue(c, "3", 0, "b", SATURATED);
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("1", "2", "3");
    }

    private static QueuedRequest queued(long enqueue, long ttl, long seq) {
        return new QueuedRequest() {
            @Override
            public InferenceRequest request() {
                return null;
            }

            @Override
            public long enqueueNanos() {
                return enqueue;
            }

            @Override
            public long ttlNanos() {
                return ttl;
            }

            @Override
            public long byteSize() {
                return 0;
            }

            @Override
            public long sequence() {
                return seq;
            }

            @Override
            public String toString() {
                return enqueue + "+" + ttl;
            }
        };
    }

    @Test
    void aRequestThatWouldOverfillItsBandOrTheQueuesIsRefusedWithA429() {
        BandSettings small = new BandSettings(250, 0, new FcfsOrderingPolicy("f"), new GlobalStrictFairnessPolicy("g"));
        FlowControlSettings s = new FlowControlSettings(0, 3, 0, Map.of(5, new BandSettings(1_000, 2,
                new FcfsOrderingPolicy("f"), new GlobalStrictFairnessPolicy("g"))), small, null,
                new StaticUsageLimitPolicy("s", 1.0), false, null, null);
        FlowController c = controller(s);
        assertThat(enqueue(c, "a", 0, null, SATURATED).refusal()).isNull();
        assertThat(enqueue(c, "b", 0, null, SATURATED).refusal()).isNull();
        SchedulingException bytes = enqueue(c, "c", 0, null, SATURATED).refusal(); // 300 bytes > 250
        assertThat(bytes.status()).isEqualTo(429);
        assertThat(bytes.droppedReason()).isEqualTo("rejected-saturated");
        assertThat(bytes.getMessage()).startsWith("request rejected by flow control");
        assertThat(enqueue(c, "d", 5, null, SATURATED).refusal()).isNull(); // band 5 has room; 3 queued in all
        assertThat(enqueue(c, "e", 5, null, SATURATED).refusal()).isNotNull(); // the global limit of 3 requests
        assertThat(c.queued()).isEqualTo(3);
        assertThat(c.dispatch(() -> log.isEmpty() ? IDLE : SATURATED)).isEqualTo(1);
        assertThat(enqueue(c, "f", 5, null, SATURATED).refusal()).isNull(); // room again
        assertThat(enqueue(c, "g", 5, null, SATURATED).refusal()).isNotNull(); // band 5's 2 requests
        assertThat(outcomes).filteredOn(o -> o.contains("RejectedCapacity")).hasSize(3);
    }

    @Test
    void aRequestWaitingPastItsTtlLeavesWithA503AndOthersStay() {
        FlowController c = controller(settings(Map.of(), band(new GlobalStrictFairnessPolicy("gs")),
                new StaticUsageLimitPolicy("s", 1.0), Duration.ofMillis(500).toNanos(), false));
        enqueue(c, "old", 0, null, SATURATED);
        ticker.advance(Duration.ofMillis(300));
        enqueue(c, "new", 0, null, SATURATED);
        ticker.advance(Duration.ofMillis(198));
        assertThat(c.expire()).isZero(); // "old" waited 499 ms: not yet its TTL
        ticker.advance(Duration.ofMillis(2));
        assertThat(c.dispatch(() -> SATURATED)).isZero();
        assertThat(log).containsExactly("xold");
        assertThat(c.queued()).isEqualTo(1);
        assertThat(outcomes).containsExactly("old:EvictedTTL:501");
        ticker.advance(Duration.ofMillis(300));
        c.expire();
        assertThat(log).containsExactly("xold", "xnew");
        assertThat(c.queued()).isZero();
    }

    @Test
    void theRefusalsSayWhatLlmDsSay() {
        FlowController c = controller(settings(Map.of(), band(new GlobalStrictFairnessPolicy("gs")),
                new StaticUsageLimitPolicy("s", 1.0), Duration.ofMillis(10).toNanos(), false));
        Logged expired = new Logged("t");
        c.enqueue(request("t", 0, null), 10, expired, SATURATED);
        Logged gone = new Logged("g");
        Ticket ticket = c.enqueue(request("g", 0, null), 10, gone, SATURATED);
        assertThat(ticket.cancel()).isTrue();
        assertThat(ticket.cancel()).isFalse();
        ticker.advance(Duration.ofMillis(11));
        c.expire();
        assertThat(expired.refused.status()).isEqualTo(503);
        assertThat(expired.refused.droppedReason()).isEqualTo("rejected-ttl-expired");
        assertThat(expired.refused.getMessage()).startsWith("request timed out in queue");
        assertThat(gone.refused.status()).isEqualTo(503);
        assertThat(gone.refused.droppedReason()).isEqualTo("rejected-context-cancelled");
        assertThat(gone.refused.getMessage()).startsWith("client disconnected");
        assertThat(c.queued()).isZero();
    }

    @Test
    void aCancelledRequestLeavesItsFlowAndTheRestGoOn() {
        FlowController c = controller(plain());
        enqueue(c, "a", 0, null, SATURATED);
        Ticket b = enqueue(c, "b", 0, null, SATURATED);
        enqueue(c, "c", 0, null, SATURATED);
        b.cancel();
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("xb", "a", "c");
        assertThat(b.cancel()).isFalse();
    }

    @Test
    void withHeadroomAndNothingWaitingARequestIsAdmittedAtOnceButNeverPassesOnesThatWait() {
        FlowController c = controller(plain());
        Ticket first = enqueue(c, "1", 0, null, 0.5);
        assertThat(first.admittedAtOnce()).isTrue();
        assertThat(log).isEmpty(); // no waiter call: the host goes on itself
        enqueue(c, "2", 0, null, SATURATED); // waits
        Ticket third = enqueue(c, "3", 10, null, 0.5);
        assertThat(third.admittedAtOnce()).isFalse(); // "2" waits, so "3" queues and the cycle orders them
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("3", "2");
        assertThat(outcomes).first().isEqualTo("1:Dispatched:0");
    }

    @Test
    void aBandMadeForAnUnconfiguredPriorityGoesWhenEmptyAConfiguredOneStays() {
        FlowController c = controller(settings(Map.of(7, band(new GlobalStrictFairnessPolicy("g"))),
                band(new GlobalStrictFairnessPolicy("g")), new StaticUsageLimitPolicy("s", 1.0), 0, false));
        enqueue(c, "a", 7, null, SATURATED);
        enqueue(c, "b", 3, null, SATURATED);
        assertThat(c.bandSizes()).containsOnlyKeys(7, 3);
        c.dispatch(() -> IDLE);
        assertThat(c.bandSizes()).containsExactly(Map.entry(7, 0));
        assertThat(c.flows()).isEmpty();
    }

    @Test
    void evictionTakesTheLowestPriorityNewestDispatchedFirstAtMostTwoAtATime() {
        FlowController c = controller(settings(Map.of(), band(new GlobalStrictFairnessPolicy("gs")),
                new StaticUsageLimitPolicy("s", 1.0), 0, true));
        List<Ticket> running = new ArrayList<>();
        running.add(enqueue(c, "s1", -1, null, IDLE)); // admitted at once
        running.add(enqueue(c, "s2", -2, null, IDLE));
        running.add(enqueue(c, "s3", -2, null, IDLE));
        running.add(enqueue(c, "n0", 0, null, IDLE)); // not sheddable: never evicted
        assertThat(running).allMatch(Ticket::admittedAtOnce);
        enqueue(c, "important", 5, null, SATURATED);
        assertThat(c.dispatch(() -> SATURATED)).isZero();
        assertThat(log).containsExactly("evict s3", "evict s2"); // priority -2 first, the newer of the two first
        c.dispatch(() -> SATURATED);
        assertThat(log).hasSize(2); // nothing more while those two are being evicted
        running.get(2).end();
        running.get(1).end();
        c.dispatch(() -> SATURATED);
        assertThat(log).containsExactly("evict s3", "evict s2", "evict s1");
        assertThat(running.get(0).evicted()).isTrue();
        assertThat(running.get(3).evicted()).isFalse();
    }

    @Test
    void withoutEvictionNothingIsEvicted() {
        FlowController c = controller(plain());
        enqueue(c, "s", -1, null, IDLE);
        enqueue(c, "important", 5, null, SATURATED);
        c.dispatch(() -> SATURATED);
        assertThat(log).isEmpty();
    }

    @Test
    void aReloadKeepsWhatWaitsAndAppliesItsNewPolicies() {
        FlowController c = controller(plain());
        enqueue(c, "a0", 0, "a", SATURATED);
        enqueue(c, "a1", 0, "a", SATURATED);
        enqueue(c, "b0", 0, "b", SATURATED);
        c.reconfigure(settings(Map.of(), band(new RoundRobinFairnessPolicy("rr")),
                new StaticUsageLimitPolicy("s", 1.0), 0, false));
        c.dispatch(() -> IDLE);
        assertThat(log).containsExactly("a0", "b0", "a1"); // round robin now, where global strict gave a0 a1 b0
    }

    @Test
    void closingRefusesWhatWaitsAndWhatComes() {
        FlowController c = controller(plain());
        Logged w = new Logged("w");
        c.enqueue(request("w", 0, null), 1, w, SATURATED);
        c.close();
        assertThat(w.refused.status()).isEqualTo(503);
        assertThat(enqueue(c, "late", 0, null, IDLE).refusal().status()).isEqualTo(503);
        assertThat(c.queued()).isZero();
    }

    /** A usage limit by priority. */
    private static final class Tiered extends NamedPlugin implements UsageLimitPolicy {
        private final IntToDoubleFunction byPriority;

        Tiered(IntToDoubleFunction byPriority) {
            super("tiered", "tiered");
            this.byPriority = byPriority;
        }

        @Override
        public double ceiling(double saturation, int priority) {
            return byPriority.applyAsDouble(priority);
        }
    }
}
