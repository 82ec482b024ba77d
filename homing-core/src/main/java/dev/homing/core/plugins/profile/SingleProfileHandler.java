package dev.homing.core.plugins.profile;

import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** llm-d's {@code single-profile-handler}: runs every profile once; the single profile's result is primary. */
public final class SingleProfileHandler extends NamedPlugin implements ProfileHandler {

    public static final String TYPE = "single-profile-handler";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, (name, p, ctx) -> new SingleProfileHandler(name))
            .defaultFor(ProfileHandler.class);

    public SingleProfileHandler(String name) {
        super(TYPE, name);
    }

    @Override
    public List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles,
                                       Map<String, ProfileResult> results) {
        List<SchedulerProfile> next = new ArrayList<>();
        for (SchedulerProfile p : profiles.values()) {
            if (!results.containsKey(p.name())) {
                next.add(p);
            }
        }
        return next;
    }

    @Override
    public SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException {
        if (results.size() != 1) {
            throw new IllegalStateException("single-profile-handler needs exactly one profile, got " + results.keySet());
        }
        String name = results.keySet().iterator().next();
        if (results.get(name).target() == null) {
            throw SchedulingException.exhausted("profile " + name + " produced no target");
        }
        return new SchedulingResult(results, name);
    }
}
