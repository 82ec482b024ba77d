package dev.homing.core.plugins.filter;

import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.plugin.NamedPlugin;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.framework.plugin.PluginType;
import dev.homing.core.framework.scheduling.Cycle;
import dev.homing.core.framework.scheduling.Filter;
import java.util.List;

/**
 * llm-d's {@code label-selector-filter} (deprecated alias {@code by-label-selector}, which keeps reporting its old
 * type, as llm-d's does): keeps the endpoints whose labels match a Kubernetes label selector; may keep none.
 */
public final class LabelSelectorFilter extends NamedPlugin implements Filter {

    public static final String TYPE = "label-selector-filter";
    public static final String DEPRECATED_TYPE = "by-label-selector";
    public static final PluginType PLUGIN_TYPE = PluginType.of(TYPE, LabelSelectorFilter::create)
            .alias(DEPRECATED_TYPE, LabelSelectorFilter::createDeprecated);

    private final LabelSelector selector;

    public LabelSelectorFilter(String type, String name, LabelSelector selector) {
        super(type, name);
        this.selector = selector;
    }

    static LabelSelectorFilter create(String name, Parameters p, PluginContext ctx) {
        return new LabelSelectorFilter(TYPE, name, LabelSelector.parse(p));
    }

    static LabelSelectorFilter createDeprecated(String name, Parameters p, PluginContext ctx) {
        return new LabelSelectorFilter(DEPRECATED_TYPE, name, LabelSelector.parse(p));
    }

    public LabelSelector selector() {
        return selector;
    }

    @Override
    public List<EndpointState> filter(Cycle cycle, List<EndpointState> candidates) {
        return Filter.keep(candidates, e -> selector.matches(e.endpoint().labels()));
    }
}
