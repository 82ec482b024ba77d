package dev.homing.core.plugins.profile;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginReference;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.plugin.ReferencesPlugins;
import dev.homing.core.framework.requestcontrol.PreRequest;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.CycleKey;
import dev.homing.core.framework.scheduling.PdDecider;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.SchedulingException;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.plugins.decider.AlwaysDisaggMultimodalDecider;
import dev.homing.core.plugins.decider.AlwaysDisaggPdDecider;
import dev.homing.core.plugins.decider.PrefixBasedPdDecider;
import dev.homing.protocol.gateway.GatewayHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * llm-d's {@code disagg-profile-handler} (deprecated alias {@code pd-profile-handler}): disaggregated serving in up to
 * three stages. The decode profile always runs first and is primary: the request goes to the decode endpoint. Then,
 * once per request, the encode decider ({@code deciders.encode}) may add the encode profile, and the prefill decider
 * ({@code deciders.prefill}) the prefill profile; a stage without a decider, or whose profile is not configured,
 * never runs. Before forwarding, it tells the decode sidecar where the other stages run ({@value
 * GatewayHeaders#PREFILLER_HOST_PORT}, {@value GatewayHeaders#ENCODER_HOSTS_PORTS}).
 *
 * <p>Parameters: {@code profiles: {decode, prefill, encode}} (default names decode, prefill, encode) and
 * {@code deciders: {prefill, encode}} (plugin names); or llm-d's deprecated flat form {@code decodeProfile},
 * {@code prefillProfile}, {@code encodeProfile}, {@code prefillDeciderPluginName}, {@code encodeDeciderPluginName},
 * {@code deciderPluginName} (same as prefillDeciderPluginName). Mixing the two forms is an error, as in llm-d. As
 * {@code pd-profile-handler} it also takes {@code prefixPluginType} and {@code prefixPluginName} (ignored: deciders
 * read the cycle's prefix match), {@code primaryPort} (0: off; else requests go to the decode host on that port, as
 * the data-parallel handler does) and defaults its prefill decider to {@code prefix-based-pd-decider}.
 */
public final class DisaggProfileHandler extends NamedPlugin implements ProfileHandler, PreRequest, ReferencesPlugins {

    public static final String TYPE = "disagg-profile-handler";
    public static final String DEPRECATED_TYPE = "pd-profile-handler";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, DisaggProfileHandler::create)
            .alias(DEPRECATED_TYPE, DisaggProfileHandler::createDeprecated);
    static final String DECIDER_KINDS = "a decider (a plugin of type " + PrefixBasedPdDecider.TYPE + ", "
            + AlwaysDisaggPdDecider.TYPE + " or " + AlwaysDisaggMultimodalDecider.TYPE + ")";

    private final String decodeProfile;
    private final String prefillProfile;
    private final String encodeProfile;
    private final PluginReference<PdDecider> prefillDecider;
    private final PluginReference<PdDecider> encodeDecider;
    private final int primaryPort;
    private final CycleKey<Stages> stagesKey;

    /** Which deciders already answered in this cycle, so each is asked once. */
    private static final class Stages {
        boolean decodeMissing;
        boolean encodeDecided;
        boolean prefillDecided;
    }

    /**
     * @param prefillDecider null: no remote prefill
     * @param encodeDecider  null: no remote encode
     * @param primaryPort    0, or the port the decode targets are sent to ({@code pd-profile-handler} only)
     */
    public DisaggProfileHandler(String type, String name, String decodeProfile, String prefillProfile,
                                String encodeProfile, PluginReference<PdDecider> prefillDecider,
                                PluginReference<PdDecider> encodeDecider, int primaryPort) {
        super(type, name);
        this.decodeProfile = decodeProfile;
        this.prefillProfile = prefillProfile;
        this.encodeProfile = encodeProfile;
        this.prefillDecider = prefillDecider;
        this.encodeDecider = encodeDecider;
        this.primaryPort = primaryPort;
        this.stagesKey = CycleKey.of(name() + "-stages", Stages.class);
    }

    static DisaggProfileHandler create(String name, Parameters p, PluginContext ctx) {
        return parse(TYPE, name, p, ctx);
    }

    static DisaggProfileHandler createDeprecated(String name, Parameters p, PluginContext ctx) {
        return parse(DEPRECATED_TYPE, name, p, ctx);
    }

    private static DisaggProfileHandler parse(String type, String name, Parameters p, PluginContext ctx) {
        boolean pd = type.equals(DEPRECATED_TYPE);
        Map<String, String> profiles = NestedParameters.mapping(p, "profiles", n -> names(n, "decode", "prefill", "encode"));
        Map<String, String> deciders = NestedParameters.mapping(p, "deciders", n -> names(n, "prefill", "encode"));
        boolean nested = p.has("profiles") || p.has("deciders");
        String decodeFlat = p.string("decodeProfile", null);
        String prefillFlat = p.string("prefillProfile", null);
        String encodeFlat = p.string("encodeProfile", null);
        String prefillDeciderFlat = p.string("prefillDeciderPluginName", null);
        String encodeDeciderFlat = p.string("encodeDeciderPluginName", null);
        String deciderFlat = p.string("deciderPluginName", null);
        int primaryPort = 0;
        if (pd) {
            p.string("prefixPluginType", null); // deciders read the cycle's prefix match, whoever produced it
            p.string("prefixPluginName", null);
            primaryPort = p.integer("primaryPort", 0);
            if (primaryPort != 0) {
                DataParallelProfileHandler.checkPort(primaryPort);
            }
        }
        boolean flat = decodeFlat != null || prefillFlat != null || encodeFlat != null || prefillDeciderFlat != null
                || encodeDeciderFlat != null || deciderFlat != null;
        if (nested && flat) {
            throw new PluginConfigException("use one parameter format: either 'profiles'/'deciders' or the deprecated "
                    + "flat decodeProfile, prefillProfile, encodeProfile, prefillDeciderPluginName, "
                    + "encodeDeciderPluginName, deciderPluginName, not both");
        }
        String decode = orDefault(nested ? profiles.get("decode") : decodeFlat, "decode");
        String prefill = orDefault(nested ? profiles.get("prefill") : prefillFlat, "prefill");
        String encode = orDefault(nested ? profiles.get("encode") : encodeFlat, "encode");
        String prefillDeciderName = nested ? deciders.get("prefill")
                : prefillDeciderFlat != null ? prefillDeciderFlat : deciderFlat;
        String encodeDeciderName = nested ? deciders.get("encode") : encodeDeciderFlat;
        if (pd && (prefillDeciderName == null || prefillDeciderName.isEmpty())) {
            if (deciderFlat != null || prefillDeciderFlat != null) {
                throw new PluginConfigException("parameter 'deciderPluginName' must not be empty");
            }
            prefillDeciderName = PrefixBasedPdDecider.TYPE; // pd-profile-handler's default decider
        }
        String prefillParameter = nested ? "deciders.prefill"
                : prefillDeciderFlat != null ? "prefillDeciderPluginName" : "deciderPluginName";
        String encodeParameter = nested ? "deciders.encode" : "encodeDeciderPluginName";
        return new DisaggProfileHandler(type, name, decode, prefill, encode,
                reference(prefillParameter, prefillDeciderName, ctx), reference(encodeParameter, encodeDeciderName, ctx),
                primaryPort);
    }

    private static Map<String, String> names(Parameters n, String... keys) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String k : keys) {
            String v = n.string(k, null);
            if (v != null && !v.isEmpty()) {
                out.put(k, v);
            }
        }
        return out;
    }

    private static String orDefault(String value, String dflt) {
        return value == null || value.isEmpty() ? dflt : value;
    }

    private static PluginReference<PdDecider> reference(String parameter, String name, PluginContext ctx) {
        return name == null || name.isEmpty() ? null
                : new PluginReference<>(parameter, name, PdDecider.class, DECIDER_KINDS, ctx);
    }

    @Override
    public void resolveReferences(Map<String, ? extends Plugin> plugins) {
        if (prefillDecider != null) {
            prefillDecider.resolve(plugins);
        }
        if (encodeDecider != null) {
            encodeDecider.resolve(plugins);
        }
    }

    @Override
    public List<SchedulerProfile> pick(Cycle cycle, Map<String, SchedulerProfile> profiles,
                                       Map<String, ProfileResult> results) {
        Stages stages = stages(cycle);
        if (!results.containsKey(decodeProfile)) {
            SchedulerProfile decode = profiles.get(decodeProfile);
            stages.decodeMissing = decode == null; // processResults says so
            return decode == null ? List.of() : List.of(decode);
        }
        EndpointState decodeTarget = results.get(decodeProfile).target();
        if (decodeTarget == null) {
            return List.of();
        }
        if (!stages.encodeDecided && encodeDecider != null && profiles.containsKey(encodeProfile)
                && !results.containsKey(encodeProfile)) {
            stages.encodeDecided = true;
            if (encodeDecider.get().disaggregate(cycle, decodeTarget)) {
                return List.of(profiles.get(encodeProfile));
            }
        }
        if (!stages.prefillDecided && prefillDecider != null && profiles.containsKey(prefillProfile)
                && !results.containsKey(prefillProfile)) {
            stages.prefillDecided = true;
            if (prefillDecider.get().disaggregate(cycle, decodeTarget)) {
                return List.of(profiles.get(prefillProfile));
            }
        }
        return List.of();
    }

    /** Decode: its result is always primary, whatever the other stages choose. */
    @Override
    public String primaryProfile(Map<String, SchedulerProfile> profiles) {
        return decodeProfile;
    }

    private Stages stages(Cycle cycle) {
        Stages stages = cycle.get(stagesKey);
        if (stages == null) {
            stages = new Stages();
            cycle.put(stagesKey, stages);
        }
        return stages;
    }

    @Override
    public SchedulingResult processResults(Cycle cycle, Map<String, ProfileResult> results) throws SchedulingException {
        if (stages(cycle).decodeMissing) {
            throw new SchedulingException(500, type() + " '" + name() + "': there is no scheduling profile named '"
                    + decodeProfile + "' (its decode profile)");
        }
        ProfileResult decode = results.get(decodeProfile);
        if (decode == null || decode.target() == null) {
            throw SchedulingException.exhausted("failed to find available decode workers");
        }
        Map<String, ProfileResult> kept = new LinkedHashMap<>();
        kept.put(decodeProfile, primaryPort == 0 ? decode
                : DataParallelProfileHandler.onPrimaryPort(cycle, decode, primaryPort));
        for (String stage : List.of(encodeProfile, prefillProfile)) {
            ProfileResult r = results.get(stage);
            if (r != null && r.target() != null && !stage.equals(decodeProfile)) {
                kept.put(stage, r);
            }
        }
        return new SchedulingResult(kept, decodeProfile, prefillProfile);
    }

    @Override
    public void preRequest(Cycle cycle, SchedulingResult result) {
        DisaggHeadersHandler.write(cycle, result, prefillProfile, encodeProfile);
    }
}
