package dev.homing.core.plugins.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.fixtures.Cycles;
import dev.homing.core.fixtures.Pools;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.picker.MaxScorePicker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SingleProfileHandlerTest {

    private final SingleProfileHandler handler = new SingleProfileHandler(null);
    private final EndpointPool pool = Pools.of(2);
    private final SchedulerProfile profile = new SchedulerProfile("default", List.of(), List.of(),
            new MaxScorePicker(null, 1));

    @Test
    void runsTheProfileOnceAndMakesItPrimary() throws Exception {
        Cycle c = Cycles.of(pool);
        Map<String, SchedulerProfile> profiles = Map.of("default", profile);
        Map<String, ProfileResult> results = new LinkedHashMap<>();
        assertThat(handler.pick(c, profiles, results)).containsExactly(profile);
        results.put("default", profile.run(c, Pools.states(pool)));
        assertThat(handler.pick(c, profiles, results)).isEmpty();
        SchedulingResult r = handler.processResults(c, results);
        assertThat(r.primaryProfile()).isEqualTo("default");
        assertThat(r.prefillTarget()).isNull();
    }

    @Test
    void anythingButOneResultIsAnError() throws Exception {
        Cycle c = Cycles.of(pool);
        assertThatThrownBy(() -> handler.processResults(c, Map.of())).hasMessageContaining("exactly one profile");
        ProfileResult r = profile.run(c, Pools.states(pool));
        assertThatThrownBy(() -> handler.processResults(c, Map.of("a", r, "b", r)))
                .hasMessageContaining("exactly one profile");
    }
}
