package dev.homing.core.director;

import static dev.homing.core.fixtures.Pools.metrics;
import static dev.homing.core.fixtures.Pools.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.config.DefaultConfig;
import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.FakeTicker;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.openai.ApiKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A request continuing a stored response goes where that response was made, while it can. */
class ResponseStickinessTest {

    private static final String MODEL = Requests.MODEL;

    private static Director director(EndpointPool pool, int capacity) {
        FakeTicker ticker = new FakeTicker();
        RoutingPolicy policy = DefaultConfig.resolve(BuiltIns.registry(),
                new PluginContext(ticker, new SplittableRandom(1), pool)).policy();
        return new Director(pool, policy, ticker, new ResponseAffinity(capacity));
    }

    private static EndpointPool pool(int pods) {
        EndpointPool pool = Pools.of(pods);
        for (EndpointState e : pool.snapshot().endpoints()) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        return pool;
    }

    private static InferenceRequest response(String input, String previous) {
        return response(input, previous, "");
    }

    private static InferenceRequest response(String input, String previous, String extra) {
        String prev = previous == null ? "" : ",\"previous_response_id\":\"" + previous + "\"";
        return Requests.fromBody(ApiKind.RESPONSES,
                "{\"model\":\"" + MODEL + "\",\"input\":\"" + input + "\"" + prev + extra + "}", Map.of());
    }

    /** Places a request, reports the response id its target answered with, and ends it. */
    private static String answer(Director d, InferenceRequest r, String responseId) throws Exception {
        try (Dispatch dispatch = d.dispatch(r)) {
            dispatch.answered(responseId);
            return dispatch.target().name();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void aFollowUpGoesWhereItsPreviousResponseWasMadeWhateverTheLoad(int seed) throws Exception {
        EndpointPool pool = pool(4);
        Director d = director(pool, 100);
        SplittableRandom random = new SplittableRandom(seed);
        List<Dispatch> busy = new ArrayList<>();
        for (int turn = 0; turn < 5; turn++) {
            String first = answer(d, response("Conversation " + seed + " opens, turn " + turn, null), "resp_" + turn);
            // make the pod that answered the busiest one: load alone would send the follow-up elsewhere
            for (int i = 0; i < 3 + random.nextInt(3); i++) {
                Dispatch other = d.dispatch(Requests.completion(Requests.prose(seed * 100 + turn * 10 + i, 30)),
                        e -> e.name().equals(first));
                busy.add(other);
            }
            String followUp = answer(d, response("And then?", "resp_" + turn), "resp_" + turn + "b");
            assertThat(followUp).isEqualTo(first);
            assertThat(answer(d, response("And then again?", "resp_" + turn + "b"), null)).isEqualTo(first);
        }
        busy.forEach(Dispatch::close);
        assertThat(d.responses().pinned()).isEqualTo(10);
        for (EndpointState e : pool.snapshot().endpoints()) {
            assertThat(e.inFlightRequests()).isZero();
        }
    }

    @Test
    void inAPdConfigAFollowUpGoesToItsDecodePodAndIsStillPrefilledOnAPrefillPod() throws Exception {
        EndpointPool pool = new EndpointPool();
        List<Endpoint> endpoints = new ArrayList<>();
        String[] roles = {"prefill", "prefill", "decode", "decode"};
        for (int i = 0; i < roles.length; i++) {
            endpoints.add(new Endpoint(roles[i] + "-" + i, "10.0.0." + (i + 1), 8000, Map.of("llm-d.ai/role", roles[i])));
        }
        pool.setEndpoints(endpoints);
        for (Endpoint e : endpoints) {
            scrape(pool, e.name(), metrics(0, 0, 0.05));
        }
        FakeTicker ticker = new FakeTicker();
        RoutingPolicy pd = BuiltInConfig.PD.resolve(BuiltIns.registry(),
                new PluginContext(ticker, new SplittableRandom(1), pool)).policy();
        Director d = new Director(pool, pd, ticker, new ResponseAffinity(100));
        String first = answer(d, response(Requests.prose(1, 80), null), "resp_pd");
        assertThat(first).startsWith("decode-");
        // the decode pod that stored it is the busier one now: the queue scorer alone would choose the other
        scrape(pool, first, metrics(8, 4, 0.5));
        // a long new turn the decode pod holds nothing of: the prefill decider sends its prompt to a prefill pod
        try (Dispatch followUp = d.dispatch(response(Requests.prose(2, 80), "resp_pd"))) {
            assertThat(followUp.target().name()).isEqualTo(first);
            EndpointState prefill = followUp.result().prefillTarget();
            assertThat(prefill).isNotNull();
            assertThat(prefill.endpoint().label("llm-d.ai/role")).isEqualTo("prefill");
            assertThat(followUp.cycle().upstreamHeaders()).containsEntry("x-prefiller-host-port",
                    prefill.endpoint().address());
        }
        assertThat(d.responses().pinned()).isEqualTo(1);
    }

    @Test
    void anIneligibleOrDepartedEndpointFallsBackToOrdinaryRouting() throws Exception {
        EndpointPool pool = pool(3);
        Director d = director(pool, 100);
        String first = answer(d, response("Hello there, tell me a story", null), "resp_1");
        // the pod failed on an earlier attempt: the follow-up is placed elsewhere rather than refused
        try (Dispatch retry = d.dispatch(response("More", "resp_1"), e -> !e.name().equals(first))) {
            assertThat(retry.target().name()).isNotEqualTo(first);
        }
        assertThat(d.responses().unpinned()).isEqualTo(1);
        // the pod left the pool: its responses are forgotten, and the follow-up is routed as any other
        List<Endpoint> rest = new ArrayList<>();
        for (EndpointState e : pool.snapshot().endpoints()) {
            if (!e.name().equals(first)) {
                rest.add(e.endpoint());
            }
        }
        pool.setEndpoints(rest);
        assertThat(d.responses().endpointOf("resp_1")).isNull();
        String after = answer(d, response("More", "resp_1"), null);
        assertThat(after).isNotEqualTo(first);
    }

    @Test
    void anIdThatArrivesAfterItsPodLeftThePoolIsNotLearnt() throws Exception {
        EndpointPool pool = pool(3);
        Director d = director(pool, 100);
        try (Dispatch dispatch = d.dispatch(response("Answered by a pod about to leave", null))) {
            String target = dispatch.target().name();
            List<Endpoint> rest = new ArrayList<>();
            for (EndpointState e : pool.snapshot().endpoints()) {
                if (!e.name().equals(target)) {
                    rest.add(e.endpoint());
                }
            }
            pool.setEndpoints(rest); // the pod leaves while its answer is still passing
            dispatch.answered("resp_late");
        }
        // kept, the id would outlive its pod (and its store) until evicted, and pin a pod of that name if it came back
        assertThat(d.responses().endpointOf("resp_late")).isNull();
        assertThat(d.responses().size()).isZero();
    }

    @Test
    void unknownAndEvictedIdsAreRoutedAsAnyOther() throws Exception {
        EndpointPool pool = pool(3);
        Director d = director(pool, 2);
        String first = answer(d, response("First conversation starts here", null), "resp_a");
        answer(d, response("Second conversation starts here", null), "resp_b");
        answer(d, response("Third conversation starts here", null), "resp_c"); // evicts resp_a
        assertThat(d.responses().size()).isEqualTo(2);
        // with resp_a forgotten, the newcomer spreader may send its follow-up anywhere: over many tries, not only
        // to the first pod (a pinned request would go there every time)
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            seen.add(answer(d, response("Follow-up " + i, "resp_a"), null));
        }
        assertThat(seen).hasSizeGreaterThan(1);
        assertThat(d.responses().pinned()).isZero();
        assertThat(first).isNotNull();
    }

    @Test
    void onlyStoredResponsesApiAnswersAreLearnt() throws Exception {
        EndpointPool pool = pool(2);
        Director d = director(pool, 100);
        answer(d, Requests.completion("a completion has an id too"), "cmpl-1");
        answer(d, response("not stored", null, ",\"store\":false"), "resp_unstored");
        answer(d, response("stored", null, ",\"store\":true"), "resp_stored");
        assertThat(d.responses().endpointOf("cmpl-1")).isNull();
        assertThat(d.responses().endpointOf("resp_unstored")).isNull();
        assertThat(d.responses().endpointOf("resp_stored")).isNotNull();
    }

    @Test
    void explainingAFollowUpShowsThePinAndChangesNothing() throws Exception {
        EndpointPool pool = pool(3);
        Director d = director(pool, 100);
        String first = answer(d, response("Explain me", null), "resp_x");
        Decision decision = d.explain(response("Again", "resp_x"), e -> true);
        assertThat(decision.result().target().name()).isEqualTo(first);
        assertThat(d.responses().pinned()).isZero();
    }
}
