package dev.homing.core.config;

import dev.homing.core.framework.plugin.ParameterNotice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says where in the file a plugin's parameter is: the warnings its notices become name the file, the line of the key
 * and the key's path, as errors do, so that a misspelt parameter llm-d would silently ignore is still pointed at.
 */
final class ParameterWarnings {

    private static final Pattern SEGMENT = Pattern.compile("([^\\[\\]]*)((?:\\[\\d+])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");

    private ParameterWarnings() {
    }

    /** One warning per notice, in the order of their lines. */
    static List<String> of(String source, PluginSpec spec, List<ParameterNotice> notices) {
        record Located(int line, String text) {
        }
        List<Located> out = new ArrayList<>();
        for (ParameterNotice n : notices) {
            int line = n.path() == null ? spec.line() : line(spec.parameters(), n.path(), spec.line());
            String where = n.path() == null ? "" : "parameter '" + n.path() + "': ";
            out.add(new Located(line, ConfigException.location(source, line) + ": plugin '" + spec.name() + "' ("
                    + spec.type() + "): " + where + n.message()));
        }
        out.sort(Comparator.comparingInt(Located::line));
        return out.stream().map(Located::text).toList();
    }

    /**
     * The line of the key at {@code path} ({@code a.b}, {@code list[2].c}) in a plugin's parameters; where a step is
     * not there (a value a factory made up), the line of the last step that is, else {@code fallback}.
     */
    static int line(ConfigNode parameters, String path, int fallback) {
        ConfigNode node = parameters;
        int line = fallback;
        for (String step : path.split("\\.")) {
            Matcher m = SEGMENT.matcher(step);
            if (!m.matches() || !(node instanceof ConfigNode.Mapping mapping) || !mapping.has(m.group(1))) {
                return line;
            }
            ConfigNode.Entry e = mapping.entries().get(m.group(1));
            line = e.keyLine();
            node = e.value();
            Matcher i = INDEX.matcher(m.group(2));
            while (i.find()) {
                int index = Integer.parseInt(i.group(1));
                if (!(node instanceof ConfigNode.Sequence s) || index >= s.items().size()) {
                    return line;
                }
                node = s.items().get(index);
                line = node.line();
            }
        }
        return line;
    }
}
