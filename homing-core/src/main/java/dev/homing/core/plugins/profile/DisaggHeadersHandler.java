package dev.homing.core.plugins.profile;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugin.NamedPlugin;
import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.PluginContext;
import dev.homing.core.plugin.PreRequest;
import dev.homing.core.scheduling.Cycle;
import dev.homing.core.scheduling.ProfileResult;
import dev.homing.core.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tells the decode endpoint's sidecar where the disaggregated stages run: {@value #PREFILL_HEADER} = the prefill
 * profile's target ({@code host:port}), {@value #ENCODE_HEADER} = the encode profile's targets, comma-separated. The
 * {@code disagg-profile-handler} does this itself; this is llm-d's deprecated separate pre-request plugin
 * {@code disagg-headers-handler} (alias {@code prefill-header-handler}), kept for older configs. Parameters
 * {@code prefillProfile} ("prefill") and {@code encodeProfile} ("encode").
 */
public final class DisaggHeadersHandler extends NamedPlugin implements PreRequest {

    public static final String TYPE = "disagg-headers-handler";
    public static final String DEPRECATED_TYPE = "prefill-header-handler";
    public static final String PREFILL_HEADER = "x-prefiller-host-port";
    public static final String ENCODE_HEADER = "x-encoder-hosts-ports";

    private final String prefillProfile;
    private final String encodeProfile;

    public DisaggHeadersHandler(String type, String name, String prefillProfile, String encodeProfile) {
        super(type, name);
        this.prefillProfile = prefillProfile;
        this.encodeProfile = encodeProfile;
    }

    public static DisaggHeadersHandler create(String name, Parameters p, PluginContext ctx) {
        return new DisaggHeadersHandler(TYPE, name, p.string("prefillProfile", "prefill"),
                p.string("encodeProfile", "encode"));
    }

    public static DisaggHeadersHandler createDeprecated(String name, Parameters p, PluginContext ctx) {
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
        headers.remove(PREFILL_HEADER);
        headers.remove(ENCODE_HEADER);
        ProfileResult prefill = result.profile(prefillProfile);
        if (prefill != null && prefill.target() != null) {
            headers.put(PREFILL_HEADER, prefill.target().endpoint().address());
        }
        ProfileResult encode = result.profile(encodeProfile);
        if (encode != null && !encode.targets().isEmpty()) {
            List<String> addresses = new ArrayList<>(encode.targets().size());
            for (EndpointState e : encode.targets()) {
                addresses.add(e.endpoint().address());
            }
            headers.put(ENCODE_HEADER, String.join(",", addresses));
        }
    }
}
