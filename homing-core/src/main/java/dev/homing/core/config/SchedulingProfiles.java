package dev.homing.core.config;

import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.framework.plugin.PluginRegistry;
import dev.homing.core.framework.scheduling.Filter;
import dev.homing.core.framework.scheduling.Picker;
import dev.homing.core.framework.scheduling.SchedulerProfile;
import dev.homing.core.framework.scheduling.Scorer;
import dev.homing.core.framework.scheduling.WeightedScorer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduling profiles of a configuration whose plugins exist, with llm-d's defaults: without
 * {@code schedulingProfiles}, one {@code default} profile of every filter, scorer and picker; weight 1 for a scorer
 * without one; a declared picker, else the registry's default one, for a profile that names none.
 */
final class SchedulingProfiles {

    /** Adds a plugin of a default type, named after it, and returns it. */
    @FunctionalInterface
    interface Defaults {
        Plugin add(String type) throws ConfigException;
    }

    private final EndpointPickerConfig config;
    private final String src;
    private final PluginRegistry registry;
    private final Map<String, Plugin> plugins;
    private final List<String> warnings;
    private final Defaults defaults;

    SchedulingProfiles(EndpointPickerConfig config, PluginRegistry registry, Map<String, Plugin> plugins,
                       List<String> warnings, Defaults defaults) {
        this.config = config;
        this.src = config.source();
        this.registry = registry;
        this.plugins = plugins;
        this.warnings = warnings;
        this.defaults = defaults;
    }

    /** Builds every profile; each is also described, as {@code homing config check} prints it, into {@code described}. */
    List<SchedulerProfile> build(List<ResolvedConfig.Profile> described) throws ConfigException {
        List<ProfileSpec> specs = config.schedulingProfiles();
        if (specs.isEmpty()) {
            List<PluginRefSpec> all = new ArrayList<>();
            for (Map.Entry<String, Plugin> e : plugins.entrySet()) {
                if (e.getValue() instanceof Filter || e.getValue() instanceof Scorer || e.getValue() instanceof Picker) {
                    all.add(new PluginRefSpec(e.getKey(), null, config.line(e.getKey())));
                }
            }
            specs = List.of(new ProfileSpec("default", all, 0));
        }
        List<SchedulerProfile> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ProfileSpec ps : specs) {
            if (!names.add(ps.name())) {
                throw new ConfigException(src, ps.line(), "two scheduling profiles are named '" + ps.name() + "'");
            }
            out.add(profile(ps, described));
        }
        return out;
    }

    private SchedulerProfile profile(ProfileSpec ps, List<ResolvedConfig.Profile> described) throws ConfigException {
        List<Filter> filters = new ArrayList<>();
        List<WeightedScorer> scorers = new ArrayList<>();
        List<ResolvedConfig.Weighted> weights = new ArrayList<>();
        List<String> others = new ArrayList<>();
        Picker picker = null;
        for (PluginRefSpec ref : ps.plugins()) {
            Plugin p = plugins.get(ref.pluginRef());
            if (p == null) {
                throw new ConfigException(src, ref.line(), "profile '" + ps.name() + "' refers to '" + ref.pluginRef()
                        + "', which is not a plugin; plugins: " + String.join(", ", plugins.keySet()));
            }
            if (ref.weight() != null && !(p instanceof Scorer)) {
                throw new ConfigException(src, ref.line(), "profile '" + ps.name() + "': '" + ref.pluginRef()
                        + "' is not a scorer, so it takes no weight");
            }
            if (p instanceof Picker pk) {
                if (picker != null) {
                    throw new ConfigException(src, ref.line(), "profile '" + ps.name() + "' has two pickers: '"
                            + picker.name() + "' and '" + pk.name() + "'");
                }
                picker = pk;
            }
            if (p instanceof Filter f) {
                filters.add(f);
            }
            if (p instanceof Scorer s) {
                double w = ref.weight() == null ? 1.0 : ref.weight();
                if (!(w >= 0) || Double.isInfinite(w)) {
                    throw new ConfigException(src, ref.line(), "profile '" + ps.name() + "': weight of '"
                            + ref.pluginRef() + "' must be a finite number >= 0, got " + ref.weight());
                }
                scorers.add(new WeightedScorer(s, w));
                weights.add(new ResolvedConfig.Weighted(s.name(), s.type(), w));
            }
            if (!(p instanceof Picker || p instanceof Filter || p instanceof Scorer)) {
                others.add(p.name());
            }
        }
        if (picker == null) {
            picker = defaultPicker(ps);
        }
        described.add(new ResolvedConfig.Profile(ps.name(), filters.stream().map(Plugin::name).toList(), weights,
                picker.name(), others));
        return new SchedulerProfile(ps.name(), filters, scorers, picker);
    }

    /**
     * llm-d gives a profile without a picker one the file declares (whichever its map yields first), its default
     * only when none is; Homing takes the default type if declared, else the first declared, and says so.
     */
    private Picker defaultPicker(ProfileSpec ps) throws ConfigException {
        String type = registry.defaultFor(Picker.class).orElseThrow(() -> new ConfigException(src, ps.line(),
                "profile '" + ps.name() + "' names no picker, and there is no default one"));
        List<Picker> declared = plugins.values().stream().filter(Picker.class::isInstance).map(Picker.class::cast)
                .toList();
        Picker chosen = plugins.get(type) instanceof Picker p ? p : declared.isEmpty() ? null : declared.get(0);
        if (declared.size() > 1) {
            warnings.add(ConfigException.location(src, ps.line()) + ": profile '" + ps.name() + "' names no picker"
                    + " and several are declared (" + ConfigResolver.names(plugins, Picker.class) + "); llm-d takes"
                    + " any of them, Homing '" + chosen.name() + "'");
        }
        return chosen != null ? chosen : (Picker) defaults.add(type);
    }
}
