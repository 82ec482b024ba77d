package dev.homing.core.plugins.filter;

import dev.homing.core.framework.plugin.NestedParameters;
import dev.homing.core.framework.plugin.Parameters;
import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector ({@code metav1.LabelSelector}): {@code matchLabels} (each {@code key: value} must be
 * present) AND {@code matchExpressions} ({@code key}, {@code operator} In | NotIn | Exists | DoesNotExist,
 * {@code values}). NotIn and DoesNotExist match an endpoint without the key. An empty selector matches everything.
 * Keys and values are checked as Kubernetes checks them, so a typo fails at load rather than matching nothing.
 */
public record LabelSelector(List<Requirement> requirements) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    public LabelSelector {
        requirements = List.copyOf(requirements);
    }

    public enum Operator { In, NotIn, Exists, DoesNotExist }

    /** One condition on one label. */
    public record Requirement(String key, Operator operator, Set<String> values) {
        public Requirement {
            values = Set.copyOf(values);
        }

        public boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case In -> value != null && values.contains(value);
                case NotIn -> value == null || !values.contains(value);
                case Exists -> value != null;
                case DoesNotExist -> value == null;
            };
        }
    }

    public boolean matches(Map<String, String> labels) {
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** Reads {@code matchLabels} and {@code matchExpressions} from a filter's parameters. */
    public static LabelSelector parse(Parameters p) {
        List<Requirement> out = new ArrayList<>();
        for (Map.Entry<String, String> e : NestedParameters.strings(p, "matchLabels").entrySet()) {
            checkKey("matchLabels", e.getKey());
            checkValue("matchLabels." + e.getKey(), e.getValue());
            out.add(new Requirement(e.getKey(), Operator.In, Set.of(e.getValue())));
        }
        out.addAll(NestedParameters.list(p, "matchExpressions", LabelSelector::expression));
        return new LabelSelector(out);
    }

    private static Requirement expression(Parameters e) {
        String key = e.string("key", null);
        if (key == null) {
            throw new PluginConfigException("'key' is required");
        }
        checkKey("key", key);
        String op = e.string("operator", null);
        Operator operator = null;
        for (Operator o : Operator.values()) {
            if (o.name().equals(op)) {
                operator = o;
            }
        }
        if (operator == null) {
            throw new PluginConfigException("'operator' must be one of In, NotIn, Exists, DoesNotExist, got "
                    + (op == null ? "nothing" : "'" + op + "'"));
        }
        List<String> values = e.strings("values");
        boolean needsValues = operator == Operator.In || operator == Operator.NotIn;
        if (needsValues && values.isEmpty()) {
            throw new PluginConfigException("'values' must not be empty for operator " + operator);
        }
        if (!needsValues && !values.isEmpty()) {
            throw new PluginConfigException("'values' must be empty for operator " + operator);
        }
        for (String v : values) {
            checkValue("values", v);
        }
        return new Requirement(key, operator, new LinkedHashSet<>(values));
    }

    private static void checkKey(String where, String key) {
        int slash = key.indexOf('/');
        String prefix = slash >= 0 ? key.substring(0, slash) : null;
        String name = slash >= 0 ? key.substring(slash + 1) : key;
        boolean ok = name.length() <= 63 && NAME.matcher(name).matches()
                && (prefix == null || (prefix.length() <= 253 && DNS_SUBDOMAIN.matcher(prefix).matches()));
        if (!ok) {
            throw new PluginConfigException("'" + where + "': invalid label key '" + key
                    + "' (an optional DNS prefix and '/', then up to 63 letters, digits, '-', '_' or '.')");
        }
    }

    private static void checkValue(String where, String value) {
        if (!value.isEmpty() && (value.length() > 63 || !NAME.matcher(value).matches())) {
            throw new PluginConfigException("'" + where + "': invalid label value '" + value
                    + "' (up to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)");
        }
    }
}
