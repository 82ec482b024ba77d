package dev.homing.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.director.PolicyAssembler;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.framework.plugin.Pairing;
import dev.homing.core.framework.plugin.ParameterNotice;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginRegistry;
import dev.homing.core.framework.plugin.ReferencesPlugins;
import dev.homing.core.flowcontrol.FlowControlSettings;
import dev.homing.core.framework.requestcontrol.SaturationDetector;
import dev.homing.core.framework.scheduling.ProfileHandler;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

/**
 * Turns a parsed {@link EndpointPickerConfig} into running plugins and a {@link RoutingPolicy}, with llm-d's
 * auto-defaults: a {@code default} profile of every filter, scorer and picker when none is given; weight 1 for a scorer
 * without one; the registry's default picker for a profile without one, its default profile handler for a single
 * profile without one, its default saturation detector; and the companion each plugin's type pairs it with (a prefix
 * scorer's producer) when nothing declares it. What those defaults and pairings are is each plugin type's own
 * ({@link dev.homing.core.framework.plugin.PluginType}); this class knows no plugin. The profiles are built by
 * {@link SchedulingProfiles}. Every error and warning names the file and, but for one about the file as a whole, the
 * line.
 */
public final class ConfigResolver {

    private static final Set<String> KNOWN_GATES = Set.of("flowControl", "prepareDataPlugins", "experimentalDatalayer",
            "dataLayer");
    private static final Pattern PARAMETER = Pattern.compile("parameters? '([^']+)'");

    private final PluginRegistry registry;

    public ConfigResolver(PluginRegistry registry) {
        this.registry = registry;
    }

    public ResolvedConfig resolve(EndpointPickerConfig config, PluginContext base) throws ConfigException {
        return resolve(config, base, null);
    }

    /**
     * @param previous the configuration running now, or null: plugins whose type and parameters are unchanged are
     *                 kept, so learned state (prefix indexes, LRUs) survives a reload
     */
    public ResolvedConfig resolve(EndpointPickerConfig config, PluginContext base, ResolvedConfig previous)
            throws ConfigException {
        return new Resolution(config, base, previous).run();
    }

    /** The state of resolving one config. */
    private final class Resolution {
        private final EndpointPickerConfig config;
        private final String src;
        private final ResolvedConfig previous;
        private final Map<String, Plugin> plugins = new LinkedHashMap<>();
        private final Map<String, ResolvedConfig.Spec> specs = new HashMap<>();
        private final Map<String, List<ParameterNotice>> notices = new HashMap<>();
        private final List<String> autoAdded = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private final PluginContext ctx;

        Resolution(EndpointPickerConfig config, PluginContext base, ResolvedConfig previous) {
            this.config = config;
            this.src = config.source();
            this.previous = previous;
            this.ctx = base.withPlugins(name -> Optional.ofNullable(plugins.get(name)));
        }

        ResolvedConfig run() throws ConfigException {
            if (config.apiVersion().equals(EndpointPickerConfig.LEGACY_API_VERSION)) {
                warnings.add(ConfigException.location(src, config.apiVersionLine()) + ": apiVersion "
                        + EndpointPickerConfig.LEGACY_API_VERSION + " is deprecated; use " + EndpointPickerConfig.API_VERSION);
            }
            if (config.apiVersion().equals(EndpointPickerConfig.GUIDE_API_VERSION)) {
                warnings.add(ConfigException.location(src, config.apiVersionLine()) + ": apiVersion "
                        + EndpointPickerConfig.GUIDE_API_VERSION + " (as GIE's guides write it) is read as "
                        + EndpointPickerConfig.API_VERSION + "; llm-d's loader reads only " + EndpointPickerConfig.API_VERSION
                        + " and " + EndpointPickerConfig.LEGACY_API_VERSION);
            }
            for (EndpointPickerConfig.FeatureGate gate : config.featureGates()) {
                if (!KNOWN_GATES.contains(gate.gateName())) {
                    warnings.add(ConfigException.location(src, gate.line()) + ": unknown feature gate '" + gate.name()
                            + "' ignored");
                }
            }
            checkCompanions(createPlugins());
            resolveReferences();
            List<ResolvedConfig.Profile> described = new ArrayList<>();
            List<SchedulerProfile> profiles = new SchedulingProfiles(config, registry, plugins, warnings,
                    this::addDefault).build(described);
            ProfileHandler handler = handler(profiles.size());
            String detector = checkReferences();
            FlowControlSettings flowControl = new FlowControlResolution(src, plugins, registry, this::addDefault,
                    warnings).resolve(config);
            RoutingPolicy policy = PolicyAssembler.assemble(handler, profiles, plugins.values(),
                    detector == null ? null : (SaturationDetector) plugins.get(detector), config.gate("flowControl"));
            return new ResolvedConfig(config, policy, plugins, specs, notices, described, handler.name(), detector,
                    flowControl, autoAdded, warnings);
        }

        /** Creates every declared plugin in order; returns, per paired plugin, the companion it needs. */
        private Map<String, Pairing.Companion> createPlugins() throws ConfigException {
            Map<String, Pairing.Companion> companions = new LinkedHashMap<>();
            for (PluginSpec spec : config.plugins()) {
                if (plugins.containsKey(spec.name())) {
                    throw new ConfigException(src, spec.line(), "two plugins are named '" + spec.name()
                            + "'; give one a 'name'");
                }
                JsonNode params = ConfigNodes.toJson(spec.parameters());
                Optional<Pairing> pairing = registry.pairing(spec.type());
                if (pairing.isPresent()) {
                    params = pair(spec, pairing.get(), params.isObject() ? (ObjectNode) params.deepCopy()
                            : JsonNodeFactory.instance.objectNode(), companions);
                }
                add(spec, params);
            }
            return companions;
        }

        /**
         * Takes what belongs to a plugin's companion off its parameters (the link naming it; parameters older configs
         * wrote there) and creates the companion when the configuration does not declare it. Whether the companion is
         * of the right kind is checked once every plugin exists.
         */
        private JsonNode pair(PluginSpec spec, Pairing pairing, ObjectNode params,
                              Map<String, Pairing.Companion> companions) throws ConfigException {
            Pairing.Companion c = pairing.pair(params);
            companions.put(spec.name(), c);
            boolean declared = config.plugins().stream().anyMatch(p -> p.name().equals(c.name()));
            if (!c.parameters().isEmpty() && (c.named() || declared)) {
                throw new ConfigException(src, spec.line(), "plugin '" + spec.name() + "': " + c.words().parameters()
                        + " " + fieldNames(c.parameters()) + " belong on its " + c.words().role() + " '" + c.name() + "'");
            }
            if (!declared && !plugins.containsKey(c.name())) {
                // the companion's parameters were written on this plugin: their lines are found there
                add(new PluginSpec(c.name(), c.type(), spec.parameters(), spec.line()), c.parameters());
                autoAdded.add(c.name());
            }
            return params;
        }

        private void checkCompanions(Map<String, Pairing.Companion> companions) throws ConfigException {
            for (Map.Entry<String, Pairing.Companion> e : companions.entrySet()) {
                Pairing.Companion c = e.getValue();
                Plugin p = plugins.get(c.name());
                if (!c.kind().isInstance(p)) {
                    PluginSpec paired = config.plugins().stream().filter(s -> s.name().equals(e.getKey())).findFirst()
                            .orElseThrow();
                    throw new ConfigException(src, paired.line(), "plugin '" + e.getKey() + "': its " + c.link() + " '"
                            + c.name() + "' " + (p == null ? "is not a plugin" : c.words().notOfKind()) + "; "
                            + c.words().ofKind() + ": " + names(c.kind()));
                }
            }
        }

        /** Creates a plugin, or keeps the running one when nothing changed; what its parameters say becomes warnings. */
        private void add(PluginSpec spec, JsonNode params) throws ConfigException {
            ResolvedConfig.Spec effective = new ResolvedConfig.Spec(spec.type(), params);
            Plugin kept = previous == null ? null : previous.plugins().get(spec.name());
            List<ParameterNotice> said;
            if (kept != null && effective.equals(previous.specs().get(spec.name()))) {
                plugins.put(spec.name(), kept);
                said = previous.notices().getOrDefault(spec.name(), List.of());
            } else {
                Parameters p = Parameters.of(params);
                plugins.put(spec.name(), create(spec, p));
                said = p.notices();
            }
            notices.put(spec.name(), said);
            warnings.addAll(ParameterWarnings.of(src, spec, said));
            specs.put(spec.name(), effective);
        }

        private Plugin create(PluginSpec spec, Parameters params) throws ConfigException {
            if (!registry.has(spec.type())) {
                throw new ConfigException(src, spec.line(), "unknown plugin type '" + spec.type() + "'; known types: "
                        + String.join(", ", registry.types()));
            }
            try {
                return registry.create(spec.type(), spec.name(), params, ctx);
            } catch (PluginConfigException e) {
                throw new ConfigException(src, parameterLine(spec, e.getMessage()), "plugin '" + spec.name() + "' ("
                        + spec.type() + "): " + e.getMessage());
            }
        }

        /** Plugins that name others by parameter resolve them now that all exist, so a wrong name fails here. */
        private void resolveReferences() throws ConfigException {
            for (Map.Entry<String, Plugin> e : plugins.entrySet()) {
                if (e.getValue() instanceof ReferencesPlugins r) {
                    try {
                        r.resolveReferences(plugins);
                    } catch (PluginConfigException ex) {
                        PluginSpec spec = config.plugins().stream().filter(p -> p.name().equals(e.getKey()))
                                .findFirst().orElse(new PluginSpec(e.getKey(), r.type(), null, 0));
                        throw new ConfigException(src, parameterLine(spec, ex.getMessage()), "plugin '" + e.getKey()
                                + "' (" + r.type() + "): " + ex.getMessage());
                    }
                }
            }
        }

        /** Adds a plugin of a default type, named after it, with its default parameters. */
        private Plugin addDefault(String type) throws ConfigException {
            add(new PluginSpec(type, type, null, 0), JsonNodeFactory.instance.objectNode());
            autoAdded.add(type);
            return plugins.get(type);
        }

        private ProfileHandler handler(int profiles) throws ConfigException {
            List<ProfileHandler> handlers = plugins.values().stream().filter(ProfileHandler.class::isInstance)
                    .map(ProfileHandler.class::cast).toList();
            if (handlers.size() > 1) {
                throw new ConfigException(src, config.line(handlers.get(1).name()), "more than one profile handler: "
                        + String.join(", ", handlers.stream().map(Plugin::name).toList()));
            }
            if (handlers.size() == 1) {
                return handlers.get(0);
            }
            Optional<String> single = registry.defaultFor(ProfileHandler.class);
            if (profiles > 1) {
                throw new ConfigException(src, config.schedulingProfiles().get(0).line(), profiles
                        + " scheduling profiles need a profile handler that says which to run "
                        + "(disagg-profile-handler, for instance)" + single.map(t -> "; " + t + " takes one profile")
                        .orElse(""));
            }
            return (ProfileHandler) addDefault(single.orElseThrow(() -> new ConfigException(src, 0,
                    "the configuration names no profile handler, and there is no default one")));
        }

        /** Every other pluginRef must name a plugin; returns the saturation detector's name, if any. */
        private String checkReferences() throws ConfigException {
            PluginRefSpec detector = config.saturationDetector();
            if (detector == null && config.flowControl() != null) {
                detector = config.flowControl().saturationDetector();
            }
            if (detector != null) {
                requirePlugin(detector, "saturationDetector");
                if (!(plugins.get(detector.pluginRef()) instanceof SaturationDetector)) {
                    throw new ConfigException(src, detector.line(), "saturationDetector refers to '"
                            + detector.pluginRef() + "', which is not a saturation detector; detectors: "
                            + names(SaturationDetector.class));
                }
            } else {
                // llm-d's detector is then the plugin named after its default type, made when the file has none;
                // a detector declared under another name is only a filter until saturationDetector names it
                Optional<String> byDefault = registry.defaultFor(SaturationDetector.class);
                if (byDefault.isPresent()) {
                    String name = byDefault.get();
                    if (plugins.containsKey(name) && !(plugins.get(name) instanceof SaturationDetector)) {
                        throw new ConfigException(src, config.line(name), "'" + name + "' is the saturation detector when"
                                + " saturationDetector names none, but that plugin is not one; detectors: "
                                + names(SaturationDetector.class));
                    }
                    for (Plugin p : plugins.values()) {
                        if (p instanceof SaturationDetector && !p.name().equals(name)) {
                            warnings.add(ConfigException.location(src, config.line(p.name())) + ": '" + p.name()
                                    + "' is a saturation detector, but saturationDetector"
                                    + " names none, so the detector is '" + name + "' (as in llm-d); name '" + p.name()
                                    + "' in saturationDetector.pluginRef to use it");
                        }
                    }
                    return plugins.containsKey(name) ? name : addDefault(name).name();
                }
            }
            if (config.dataLayer() != null) {
                for (DataLayerSpec.Source s : config.dataLayer().sources()) {
                    requirePlugin(s.source(), "a dataLayer source");
                    for (PluginRefSpec x : s.extractors()) {
                        requirePlugin(x, "a dataLayer extractor");
                    }
                }
                if (config.dataLayer().discovery() != null) {
                    requirePlugin(config.dataLayer().discovery(), "dataLayer discovery");
                }
            }
            if (config.parser() != null) {
                requirePlugin(config.parser(), "parser");
            }
            return detector == null ? null : detector.pluginRef();
        }

        private void requirePlugin(PluginRefSpec ref, String where) throws ConfigException {
            if (!plugins.containsKey(ref.pluginRef())) {
                throw new ConfigException(src, ref.line(), where + " refers to '" + ref.pluginRef()
                        + "', which is not a plugin; plugins: " + String.join(", ", plugins.keySet()));
            }
        }

        private String names(Class<?> type) {
            return ConfigResolver.names(plugins, type);
        }

        /** The line of the parameter an error names ({@code parameter 'a': parameter 'b': ...}), else the plugin's. */
        private int parameterLine(PluginSpec spec, String message) {
            String path = PARAMETER.matcher(message).results().map(m -> m.group(1)).collect(Collectors.joining("."));
            return ParameterWarnings.line(spec.parameters(), path, spec.line());
        }
    }

    /** The names of the plugins that are {@code type}s, for messages. */
    static String names(Map<String, Plugin> plugins, Class<?> type) {
        List<String> n = plugins.entrySet().stream().filter(e -> type.isInstance(e.getValue())).map(Map.Entry::getKey)
                .toList();
        return n.isEmpty() ? "(none)" : String.join(", ", n);
    }

    private static Set<String> fieldNames(ObjectNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
