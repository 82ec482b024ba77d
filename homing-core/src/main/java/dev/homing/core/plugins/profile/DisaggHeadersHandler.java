package dev.homing.core.plugins.profile;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.protocol.gateway.GatewayHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tells the decode endpoint's sidecar where the disaggregated stages run: {@value GatewayHeaders#PREFILLER_HOST_PORT} = the prefill
 * profile's target ({@code host:port}), {@value GatewayHeaders#ENCODER_HOSTS_PORTS} = the encode profile's targets, comma-separated. The
 * {@code disagg-profile-handler} does this itself; this is llm-d's deprecated separate pre-request plugin
 * {@code disagg-headers-handler} (alias {@code prefill-header-handler}), kept for older configs. Parameters
 * {@code prefillProfile} ("prefill") and {@code encodeProfile} ("encode").
 */
public final class DisaggHeadersHandler extends NamedPlugin implements PreRequest {

    public static final String TYPE = "disagg-headers-handler";
    public static final String DEPRECATED_TYPE = "prefill-header-handler";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, DisaggHeadersHandler::create)
            .alias(DEPRECATED_TYPE, DisaggHeadersHandler::createDeprecated);

    private final String prefillProfile;
    private final String encodeProfile;

    public DisaggHeadersHandler(String type, String name, String prefillProfile, String encodeProfile) {
        super(type, name);
        this.prefillProfile = prefillProfile;
        this.encodeProfile = encodeProfile;
    }

    static DisaggHeadersHandler create(String name, Parameters p, PluginContext ctx) {
        return new DisaggHeadersHandler(TYPE, name, p.string("prefillProfile", "prefill"),
                p.string("encodeProfile", "encode"));
    }

    static DisaggHeadersHandler createDeprecated(String name, Parameters p, PluginContext ctx) {
        return new DisaggHeadersHandler(DEPRECATED_TYPE, name, p.string("prefillProfile", "prefill"),
                p.string("encodeProfile", "encode"));
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        write(cycle, result, prefillProfile, encodeProfile);
    }

    /** Sets (or clears) both headers from the results of the named profiles. */
    static void write(Cycle cycle, SchedulingResult result, String prefillProfile, String encodeProfile) {
        Map<String, String> headers = cycle.upstreamHeaders();
        headers.remove(GatewayHeaders.PREFILLER_HOST_PORT);
        headers.remove(GatewayHeaders.ENCODER_HOSTS_PORTS);
        ProfileResult prefill = result.profile(prefillProfile);
        if (prefill != null && prefill.target() != null) {
            headers.put(GatewayHeaders.PREFILLER_HOST_PORT, prefill.target().endpoint().address());
        }
        ProfileResult encode = result.profile(encodeProfile);
        if (encode != null && !encode.targets().isEmpty()) {
            List<String> addresses = new ArrayList<>(encode.targets().size());
            for (EndpointState e : encode.targets()) {
                addresses.add(e.endpoint().address());
            }
            headers.put(GatewayHeaders.ENCODER_HOSTS_PORTS, String.join(",", addresses));
        }
    }
}
