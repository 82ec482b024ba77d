package dev.homing.core.director;

import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.requestcontrol.Admitter;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.requestcontrol.DataProducer;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.requestcontrol.Rerouted;
import dev.homing.core.framework.requestcontrol.ResponseHooks;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.Scheduler;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Sorts configured plugins into the request-control roles they implement, keeping configuration order: a plugin that
 * is both a scorer and a pre-request hook (the newcomer spreader) takes part in both.
 */
public final class PolicyAssembler {

    private PolicyAssembler() {
    }

    public static RoutingPolicy assemble(ProfileHandler handler, List<SchedulerProfile> profiles,
                                         Collection<? extends Plugin> plugins) {
        return assemble(handler, profiles, plugins, null, false);
    }

    /**
     * @param detector       the pool's saturation detector, or null
     * @param flowControlled whether requests pass flow control before the director (feature gate {@code flowControl})
     */
    public static RoutingPolicy assemble(ProfileHandler handler, List<SchedulerProfile> profiles,
                                         Collection<? extends Plugin> plugins, SaturationDetector detector,
                                         boolean flowControlled) {
        List<DataProducer> producers = new ArrayList<>();
        List<Admitter> admitters = new ArrayList<>();
        List<PreRequest> preRequests = new ArrayList<>();
        List<Rerouted> rerouted = new ArrayList<>();
        List<ResponseHooks> hooks = new ArrayList<>();
        for (Plugin p : plugins) {
            if (p instanceof DataProducer d) {
                producers.add(d);
            }
            if (p instanceof Admitter a) {
                admitters.add(a);
            }
            if (p instanceof PreRequest pre) {
                preRequests.add(pre);
            }
            if (p instanceof Rerouted r) {
                rerouted.add(r);
            }
            if (p instanceof ResponseHooks h) {
                hooks.add(h);
            }
        }
        return new RoutingPolicy(new Scheduler(handler, profiles), producers, admitters, preRequests, rerouted,
                hooks, detector, flowControlled);
    }
}
