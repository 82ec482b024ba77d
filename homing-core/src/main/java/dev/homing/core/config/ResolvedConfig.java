package dev.homing.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.homing.core.director.RoutingPolicy;
import dev.homing.core.framework.plugin.ParameterNotice;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.flowcontrol.FlowControlSettings;
import java.util.List;
import java.util.Map;

/**
 * A configuration resolved into running plugins: the policy the director runs, plus what {@code homing config check}
 * prints and what a reload needs to keep plugins whose configuration did not change.
 *
 * @param plugins   every plugin by name, declared and auto-added, in creation order
 * @param specs     the parameters each plugin was created from (after legacy forms were translated)
 * @param notices   per plugin, what its parameters said without refusing the file (unknown keys, values read but not
 *                  acted on); kept with a plugin a reload keeps, whose warnings are told again with the new lines
 * @param profiles  how each profile resolved
 * @param flowControl the flow-control settings when the {@code flowControl} gate is on, else null (legacy admission)
 * @param autoAdded names of plugins the defaults added
 * @param warnings  what a reader should know but that does not stop the file loading, most naming file and line:
 *                  printed by {@code homing config check}, logged by the router at start and on every reload
 */
public record ResolvedConfig(EndpointPickerConfig config, RoutingPolicy policy, Map<String, Plugin> plugins,
                             Map<String, Spec> specs, Map<String, List<ParameterNotice>> notices,
                             List<Profile> profiles, String profileHandler,
                             String saturationDetector, FlowControlSettings flowControl, List<String> autoAdded,
                             List<String> warnings) {

    public ResolvedConfig {
        plugins = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(plugins));
        specs = Map.copyOf(specs);
        notices = Map.copyOf(notices);
        profiles = List.copyOf(profiles);
        autoAdded = List.copyOf(autoAdded);
        warnings = List.copyOf(warnings);
    }

    /** The type and parameters a plugin was made from; equal specs mean a reload can keep the instance. */
    public record Spec(String type, JsonNode parameters) {
    }

    /** One profile as resolved. */
    public record Profile(String name, List<String> filters, List<Weighted> scorers, String picker,
                          List<String> others) {
        public Profile {
            filters = List.copyOf(filters);
            scorers = List.copyOf(scorers);
            others = List.copyOf(others);
        }
    }

    /** A scorer's name, type and weight in a profile. */
    public record Weighted(String name, String type, double weight) {
    }

    /** The plugins that are {@code type}s (a plugin type, or an interface some plugins also implement). */
    public <T> List<T> pluginsOf(Class<T> type) {
        return plugins.values().stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The resolved profiles as {@code homing config check} prints them. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Profile p : profiles) {
            b.append("profile ").append(p.name()).append('\n');
            b.append("  filters: ").append(p.filters().isEmpty() ? "(none)" : String.join(", ", p.filters())).append('\n');
            b.append("  scorers: ");
            if (p.scorers().isEmpty()) {
                b.append("(none)");
            }
            for (int i = 0; i < p.scorers().size(); i++) {
                Weighted w = p.scorers().get(i);
                b.append(i == 0 ? "" : ", ").append(label(w.name(), w.type())).append(" x").append(weight(w.weight()));
            }
            b.append('\n');
            b.append("  picker:  ").append(mark(p.picker())).append('\n');
            if (!p.others().isEmpty()) {
                b.append("  also:    ").append(String.join(", ", p.others())).append('\n');
            }
        }
        b.append("profile handler: ").append(mark(profileHandler)).append('\n');
        if (saturationDetector != null) {
            b.append("saturation detector: ").append(mark(saturationDetector)).append('\n');
        }
        b.append("admission: ").append(flowControl == null
                ? "legacy (sheddable requests refused while the pool is saturated)" : describe(flowControl))
                .append('\n');
        List<String> rest = plugins.keySet().stream()
                .filter(n -> profiles.stream().noneMatch(p -> p.filters().contains(n) || p.picker().equals(n)
                        || p.others().contains(n) || p.scorers().stream().anyMatch(w -> w.name().equals(n))))
                .filter(n -> !n.equals(profileHandler) && !n.equals(saturationDetector))
                .map(this::mark).toList();
        if (!rest.isEmpty()) {
            b.append("other plugins: ").append(String.join(", ", rest)).append('\n');
        }
        for (String w : warnings) {
            b.append("warning: ").append(w).append('\n');
        }
        return b.toString();
    }

    private static String describe(FlowControlSettings f) {
        StringBuilder b = new StringBuilder("flow control");
        b.append(", TTL ").append(f.defaultTtlNanos() == 0 ? "none" : f.defaultTtlNanos() / 1_000_000 + " ms");
        if (f.maxBytes() > 0) {
            b.append(", max bytes ").append(f.maxBytes());
        }
        if (f.maxRequests() > 0) {
            b.append(", max requests ").append(f.maxRequests());
        }
        b.append(", usage limit ").append(f.usageLimit().name());
        f.bands().entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))
                .forEach(e -> b.append("; band ").append(e.getKey()).append(": ").append(band(e.getValue())));
        b.append("; other priorities: ").append(band(f.defaultBand()));
        if (f.eviction()) {
            b.append("; eviction: ").append(f.evictionFilter().name()).append(", ").append(f.evictionOrder().name());
        }
        return b.toString();
    }

    private static String band(dev.homing.core.flowcontrol.BandSettings s) {
        return s.fairness().name() + ", " + s.ordering().name() + ", max bytes " + s.maxBytes()
                + (s.maxRequests() > 0 ? ", max requests " + s.maxRequests() : "");
    }

    private String label(String name, String type) {
        return mark(name) + (name.equals(type) ? "" : " (" + type + ")");
    }

    private String mark(String name) {
        return autoAdded.contains(name) ? name + " (default)" : name;
    }

    private static String weight(double w) {
        return w == Math.rint(w) ? Long.toString((long) w) : Double.toString(w);
    }
}
