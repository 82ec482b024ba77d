package dev.homing.core.plugins.filter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Filter;
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
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, ByLabelFilter::create);

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

    static ByLabelFilter create(String name, Parameters p, PluginContext ctx) {
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
