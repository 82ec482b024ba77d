package dev.homing.core.plugins.datalayer;

import dev.homing.core.framework.plugin.PluginConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One metric to read from a Prometheus scrape, written as a PromQL instant selector:
 * {@code name} or {@code name{label=value,...}}, label values quoted or not (llm-d accepts both). Only equality
 * matchers select series; other matchers ({@code !=}, {@code =~}, {@code !~}) and {@code __}-labels are accepted and
 * ignored, as llm-d ignores them. When several series match, the newest sample wins.
 */
public record MetricSpec(String name, Map<String, String> labels) {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern MATCHER = Pattern.compile(
            "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|[^\",}\\s]+)\\s*");

    public MetricSpec {
        labels = Map.copyOf(labels);
    }

    /**
     * @return null for an empty text (the metric is not read)
     * @throws PluginConfigException naming {@code parameter} when the text is not a selector
     */
    public static MetricSpec parse(String parameter, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String s = text.strip();
        int brace = s.indexOf('{');
        String name = brace < 0 ? s : s.substring(0, brace).strip();
        if (!NAME.matcher(name).matches()) {
            throw new PluginConfigException("parameter '" + parameter + "': '" + text
                    + "' is not a metric selector (metric_name or metric_name{label=value,...})");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (brace >= 0) {
            if (!s.endsWith("}")) {
                throw new PluginConfigException("parameter '" + parameter + "': '" + text + "' has no closing '}'");
            }
            String body = s.substring(brace + 1, s.length() - 1);
            Matcher m = MATCHER.matcher(body);
            int at = 0;
            while (at < body.length() && !body.substring(at).isBlank()) {
                if (!m.find(at) || m.start() != at) {
                    throw new PluginConfigException("parameter '" + parameter + "': cannot read the label matchers of '"
                            + text + "' at '" + body.substring(at) + "'");
                }
                String value = m.group(3);
                if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')) {
                    value = value.substring(1, value.length() - 1).replaceAll("\\\\(.)", "$1");
                }
                if (m.group(2).equals("=") && !m.group(1).startsWith("__")) {
                    labels.put(m.group(1), value);
                }
                at = m.end();
                if (at < body.length()) {
                    if (body.charAt(at) != ',') {
                        throw new PluginConfigException("parameter '" + parameter + "': expected ',' in '" + text + "'");
                    }
                    at++;
                }
            }
        }
        return new MetricSpec(name, labels);
    }

    @Override
    public String toString() {
        if (labels.isEmpty()) {
            return name;
        }
        StringBuilder b = new StringBuilder(name).append('{');
        labels.forEach((k, v) -> b.append(b.charAt(b.length() - 1) == '{' ? "" : ",").append(k).append("=\"")
                .append(v).append('"'));
        return b.append('}').toString();
    }
}
