package dev.homing.core.plugins.profile;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.endpoint;
import static dev.homing.core.plugins.PluginFixtures.params;
import static dev.homing.core.plugins.PluginFixtures.pool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.request.InferenceRequest;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.PdDecider;
import dev.homing.core.framework.scheduling.Scheduler;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.decider.AlwaysDisaggMultimodalDecider;
import dev.homing.core.plugins.decider.AlwaysDisaggPdDecider;
import dev.homing.core.plugins.decider.PrefixBasedPdDecider;
import dev.homing.core.plugins.filter.RoleFilters;
import dev.homing.core.plugins.picker.MaxScorePicker;
import dev.homing.core.plugins.scorer.QueueScorer;
import dev.homing.protocol.openai.ApiKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisaggProfileHandlerTest {

    private static final String ROLE = "llm-d.ai/role";
    private final EndpointPool pool = pool(endpoint("decode-a", 1, ROLE, "decode"), endpoint("decode-b", 2, ROLE, "decode"),
            endpoint("prefill-a", 3, ROLE, "prefill"), endpoint("encode-a", 4, ROLE, "encode"));
    private final Map<String, Plugin> plugins = new HashMap<>();

    /** A decider that says {@code answer} and counts how often it was asked. */
    private static final class Counting extends NamedPlugin implements PdDecider {
        final boolean answer;
        int asked;

        Counting(String name, boolean answer) {
            super("counting", name);
            this.answer = answer;
        }

        @Override
        public boolean disaggregate(Cycle cycle, EndpointState decodeTarget) {
            asked++;
            assertThat(decodeTarget.name()).isEqualTo("decode-a");
            return answer;
        }
    }

    private static SchedulerProfile profile(String name, dev.homing.core.framework.scheduling.Filter filter) {
        return new SchedulerProfile(name, List.of(filter), List.of(), new MaxScorePicker(null, 1));
    }

    private static List<SchedulerProfile> allProfiles() {
        return List.of(profile("decode", RoleFilters.decode(null)), profile("prefill", RoleFilters.prefill(null)),
                profile("encode", RoleFilters.encode(null)));
    }

    private DisaggProfileHandler handler(String json) {
        return DisaggProfileHandler.create(null, params(json), context(plugins));
    }

    private Cycle cycle(InferenceRequest request) {
        return new Cycle(request, pool.snapshot(), 0);
    }

    private SchedulingResult schedule(DisaggProfileHandler h, List<SchedulerProfile> profiles, Cycle c)
            throws SchedulingException {
        return new Scheduler(h, profiles).schedule(c, pool.snapshot().endpoints());
    }

    private static InferenceRequest imageChat() {
        return Requests.fromBody(ApiKind.CHAT_COMPLETIONS, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                + "\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"u\"}}]}]}", Map.of());
    }

    @Test
    void withoutDecidersOnlyDecodeRuns() throws Exception {
        DisaggProfileHandler h = handler("{}");
        Cycle c = cycle(Requests.completion("hi"));
        SchedulingResult r = schedule(h, allProfiles(), c);
        assertThat(r.primaryProfile()).isEqualTo("decode");
        assertThat(r.profiles()).containsOnlyKeys("decode");
        assertThat(r.target().name()).isEqualTo("decode-a");
        h.preRequest(c, r);
        assertThat(c.upstreamHeaders()).isEmpty();
    }

    @Test
    void thePrefillDeciderAddsThePrefillStageAndItsHeader() throws Exception {
        plugins.put("always", new AlwaysDisaggPdDecider("always"));
        DisaggProfileHandler h = handler("{'deciders':{'prefill':'always'}}");
        Cycle c = cycle(Requests.completion("hi"));
        SchedulingResult r = schedule(h, allProfiles(), c);
        assertThat(r.primaryProfile()).isEqualTo("decode");
        assertThat(r.target().name()).isEqualTo("decode-a");
        assertThat(r.profile("prefill").target().name()).isEqualTo("prefill-a");
        h.preRequest(c, r);
        assertThat(c.upstreamHeaders()).containsExactly(Map.entry("x-prefiller-host-port", "10.0.0.3:8000"));
    }

    @Test
    void encodeThenPrefillEachDecidedOnce() throws Exception {
        Counting prefill = new Counting("p", true);
        plugins.put("p", prefill);
        plugins.put("mm", new AlwaysDisaggMultimodalDecider("mm"));
        DisaggProfileHandler h = handler("{'deciders':{'prefill':'p','encode':'mm'}}");
        Cycle c = cycle(imageChat());
        SchedulingResult r = schedule(h, allProfiles(), c);
        assertThat(r.profiles()).containsOnlyKeys("decode", "encode", "prefill");
        assertThat(prefill.asked).isEqualTo(1);
        h.preRequest(c, r);
        assertThat(c.upstreamHeaders()).containsEntry("x-encoder-hosts-ports", "10.0.0.4:8000")
                .containsEntry("x-prefiller-host-port", "10.0.0.3:8000");
    }

    @Test
    void aDeciderThatSaysNoIsAskedOnce() throws Exception {
        Counting no = new Counting("no", false);
        plugins.put("no", no);
        plugins.put("mm", new AlwaysDisaggMultimodalDecider("mm"));
        SchedulingResult r = schedule(handler("{'deciders':{'prefill':'no','encode':'mm'}}"), allProfiles(),
                cycle(Requests.completion("text only")));
        assertThat(r.profiles()).containsOnlyKeys("decode");
        assertThat(no.asked).isEqualTo(1);
    }

    @Test
    void aStageWhoseProfileIsNotConfiguredNeverRuns() throws Exception {
        Counting yes = new Counting("yes", true);
        plugins.put("yes", yes);
        SchedulingResult r = schedule(handler("{'deciders':{'prefill':'yes'}}"),
                List.of(profile("decode", RoleFilters.decode(null))), cycle(Requests.completion("hi")));
        assertThat(r.profiles()).containsOnlyKeys("decode");
        assertThat(yes.asked).isZero();
    }

    @Test
    void aDeciderDeclaredAfterTheHandlerIsFoundAtFirstUse() throws Exception {
        DisaggProfileHandler h = handler("{'deciders':{'prefill':'later'}}");
        plugins.put("later", new AlwaysDisaggPdDecider("later"));
        assertThat(schedule(h, allProfiles(), cycle(Requests.completion("hi"))).profiles()).containsKey("prefill");
    }

    @Test
    void anUnknownDeciderIsAConfigErrorListingTheDeciders() {
        DisaggProfileHandler h = handler("{'deciders':{'prefill':'missing'}}");
        Map<String, Plugin> all = Map.of("pd", new PrefixBasedPdDecider("pd", 16, 0), "queue", new QueueScorer("queue"),
                "handler", h);
        assertThatThrownBy(() -> h.resolveReferences(all)).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'deciders.prefill'").hasMessageContaining("'missing'")
                .hasMessageContaining("declared plugins of that kind: pd");
        assertThatThrownBy(() -> schedule(h, allProfiles(), cycle(Requests.completion("hi"))))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("prefix-based-pd-decider");
    }

    @Test
    void aNameOfTheWrongKindFailsAtOnce() {
        plugins.put("queue", new QueueScorer("queue"));
        assertThatThrownBy(() -> handler("{'deciders':{'encode':'queue'}}")).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'deciders.encode'").hasMessageContaining("queue-scorer");
    }

    @Test
    void profileNamesCanBeChanged() throws Exception {
        plugins.put("always", new AlwaysDisaggPdDecider("always"));
        DisaggProfileHandler h = handler("{'profiles':{'decode':'d','prefill':'p'},'deciders':{'prefill':'always'}}");
        Cycle c = cycle(Requests.completion("hi"));
        SchedulingResult r = schedule(h, List.of(profile("d", RoleFilters.decode(null)),
                profile("p", RoleFilters.prefill(null))), c);
        assertThat(r.primaryProfile()).isEqualTo("d");
        h.preRequest(c, r);
        assertThat(c.upstreamHeaders()).containsEntry("x-prefiller-host-port", "10.0.0.3:8000");
    }

    @Test
    void theDeprecatedFlatParametersWorkButNotMixedWithTheNestedOnes() throws Exception {
        plugins.put("always", new AlwaysDisaggPdDecider("always"));
        SchedulingResult r = schedule(handler("{'deciderPluginName':'always','decodeProfile':'decode'}"), allProfiles(),
                cycle(Requests.completion("hi")));
        assertThat(r.profiles()).containsOnlyKeys("decode", "prefill");
        assertThatThrownBy(() -> handler("{'profiles':{'decode':'d'},'prefillDeciderPluginName':'always'}"))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("one parameter format");
        // a misspelt profile key is ignored, as llm-d's json decoding ignores it, and left as a notice naming it
        var misspelt = params("{'profiles':{'prefil':'x'}}");
        DisaggProfileHandler.create(null, misspelt, context(plugins));
        assertThat(misspelt.notices()).extracting(n -> n.path()).containsExactly("profiles.prefil");
    }

    @Test
    void noDecodeProfileIsAServerErrorNamingIt() {
        assertThatThrownBy(() -> schedule(handler("{}"), List.of(profile("default", RoleFilters.decode(null))),
                cycle(Requests.completion("hi"))))
                .isInstanceOfSatisfying(SchedulingException.class, e -> assertThat(e.status()).isEqualTo(500))
                .hasMessageContaining("'decode'");
    }

    @Test
    void pdProfileHandlerDefaultsItsDeciderAndCanSendToAPrimaryPort() throws Exception {
        DisaggProfileHandler legacy = DisaggProfileHandler.createDeprecated(null, params("{}"), context(plugins));
        assertThat(legacy.type()).isEqualTo("pd-profile-handler");
        assertThatThrownBy(() -> legacy.resolveReferences(Map.of())).isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("'prefix-based-pd-decider'");

        plugins.put("always", new AlwaysDisaggPdDecider("always"));
        DisaggProfileHandler h = DisaggProfileHandler.createDeprecated(null,
                params("{'deciderPluginName':'always','primaryPort':8200,'prefixPluginType':'prefix-cache-scorer'}"),
                context(plugins));
        Cycle c = cycle(Requests.completion("hi"));
        SchedulingResult r = schedule(h, allProfiles(), c);
        assertThat(r.target().endpoint().address()).isEqualTo("10.0.0.1:8200");
        assertThat(r.profile("prefill").target().endpoint().address()).isEqualTo("10.0.0.3:8000");
        assertThat(c.upstreamHeaders()).containsEntry("x-data-parallel-host-port", "10.0.0.1:8000");
        assertThatThrownBy(() -> DisaggProfileHandler.createDeprecated(null, params("{'primaryPort':70000}"),
                context(plugins))).isInstanceOf(PluginConfigException.class).hasMessageContaining("'primaryPort'");
    }

    @Test
    void primaryPortIsOnlyAPdProfileHandlerParameter() {
        var p = params("{'primaryPort':8200}");
        DisaggProfileHandler.create(null, p, context());
        assertThat(p.unknownKeys()).containsExactly("primaryPort");
    }
}
