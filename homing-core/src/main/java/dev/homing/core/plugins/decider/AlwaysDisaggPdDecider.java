package dev.homing.core.plugins.decider;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugin.NamedPlugin;
import dev.homing.core.plugin.PdDecider;
import dev.homing.core.scheduling.Cycle;

/** llm-d's {@code always-disagg-pd-decider}: every request is prefilled remotely. */
public final class AlwaysDisaggPdDecider extends NamedPlugin implements PdDecider {

    public static final String TYPE = "always-disagg-pd-decider";

    public AlwaysDisaggPdDecider(String name) {
        super(TYPE, name);
    }

    @Override
    public boolean disaggregate(Cycle cycle, EndpointState decodeTarget) {
        return true;
    }
}
