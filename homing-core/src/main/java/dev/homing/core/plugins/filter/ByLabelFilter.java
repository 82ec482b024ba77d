package dev.homing.core.plugins.filter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.plugin.Filter;
import dev.homing.core.plugin.NamedPlugin;
import dev.homing.core.plugin.Parameters;
import dev.homing.core.plugin.PluginConfigException;
import dev.homing.core.plugin.PluginContext;
import dev.homing.core.scheduling.Cycle;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Keeps endpoints whose label {@code label} has one of {@code validValues}, and, when {@code allowsNoLabel}, those
 * without the label: llm-d's deprecated {@code by-label} filter, and the engine of the role filters
 * ({@link RoleFilters}). As in llm-d a missing label reads as the empty value, so listing {@code ""} admits it too.
 */
public final class ByLabelFilter extends NamedPlugin implements Filter {

    public static final String TYPE = "by-label";

    private final String label;
    private final boolean allowsNoLabel;
    private final Set<String> validValues;

    public ByLabelFilter(String type, String name, String label, boolean allowsNoLabel, Collection<String> validValues) {
        super(type, name);
        if (label == null || label.isEmpty()) {
            throw new PluginConfigException("parameter 'label' must be specified");
        }
        if (validValues.isEmpty() && !allowsNoLabel) {
            throw new PluginConfigException("parameter 'validValues' must not be empty unless 'allowsNoLabel' is true");
        }
        this.label = label;
        this.allowsNoLabel = allowsNoLabel;
        this.validValues = Set.copyOf(validValues);
    }

    public static ByLabelFilter create(String name, Parameters p, PluginContext ctx) {
        return new ByLabelFilter(TYPE, name, p.string("label", null), p.bool("allowsNoLabel", false),
                p.strings("validValues"));
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        return Filter.keep(candidates, e -> {
            String value = e.endpoint().label(label);
            return (value == null && allowsNoLabel) || validValues.contains(value == null ? "" : value);
        });
    }
}
