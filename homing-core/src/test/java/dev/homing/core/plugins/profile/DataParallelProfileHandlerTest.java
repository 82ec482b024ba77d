package dev.homing.core.plugins.profile;

import static dev.homing.core.plugins.PluginFixtures.context;
import static dev.homing.core.plugins.PluginFixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.homing.core.endpoint.Endpoint;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.fixtures.Requests;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Scheduler;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.PluginFixtures;
import dev.homing.core.plugins.picker.MaxScorePicker;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataParallelProfileHandlerTest {

    private final EndpointPool pool = PluginFixtures.pool(new Endpoint("rank-1", "10.0.0.1", 8001),
            new Endpoint("rank-2", "10.0.0.1", 8002));

    private static SchedulerProfile profile(String name) {
        return new SchedulerProfile(name, List.of(), List.of(), new MaxScorePicker(null, 2));
    }

    @Test
    void sendsToThePrimaryPortNamingTheRankInAHeader() throws Exception {
        DataParallelProfileHandler h = DataParallelProfileHandler.create(null, params("{}"), context());
        Cycle c = new Cycle(Requests.completion("hi"), pool.snapshot(), 0);
        SchedulingResult r = new Scheduler(h, List.of(profile("default"))).schedule(c, pool.snapshot().endpoints());
        EndpointState rank1 = pool.snapshot().get("rank-1");
        assertThat(r.target().endpoint().address()).isEqualTo("10.0.0.1:8000");
        assertThat(r.primary().targets()).extracting(t -> t.endpoint().port()).containsExactly(8000, 8000);
        assertThat(c.upstreamHeaders()).containsEntry("x-data-parallel-host-port", "10.0.0.1:8001");
        // the load is still the rank's, so the lease credits the endpoint that does the work
        assertThat(r.target().load()).isSameAs(rank1.load());
        assertThat(r.target().index()).isEqualTo(rank1.index());
    }

    @Test
    void primaryPortIsAParameter() throws Exception {
        DataParallelProfileHandler h = DataParallelProfileHandler.create(null, params("{'primaryPort':9000}"), context());
        Cycle c = new Cycle(Requests.completion("hi"), pool.snapshot(), 0);
        assertThat(new Scheduler(h, List.of(profile("p"))).schedule(c, pool.snapshot().endpoints()).target()
                .endpoint().port()).isEqualTo(9000);
    }

    @Test
    void moreThanOneProfileIsRefused() {
        DataParallelProfileHandler h = new DataParallelProfileHandler(null, 8000);
        Cycle c = new Cycle(Requests.completion("hi"), pool.snapshot(), 0);
        assertThatThrownBy(() -> new Scheduler(h, List.of(profile("a"), profile("b"))).schedule(c,
                pool.snapshot().endpoints()))
                .isInstanceOfSatisfying(SchedulingException.class, e -> assertThat(e.status()).isEqualTo(500))
                .hasMessageContaining("exactly one scheduling profile");
    }

    @Test
    void primaryPortMustBeAPort() {
        assertThatThrownBy(() -> DataParallelProfileHandler.create(null, params("{'primaryPort':0}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'primaryPort'");
        assertThatThrownBy(() -> DataParallelProfileHandler.create(null, params("{'primaryPort':65536}"), context()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("'primaryPort'");
    }
}
