package dev.homing.router.discovery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Kubernetes label selector, as apimachinery's {@code labels.Parse} reads one and llm-d's {@code --endpoint-selector}
 * takes it: requirements separated by commas, all of which must hold: {@code key=value} (or {@code ==}),
 * {@code key!=value}, {@code key in (a,b)}, {@code key notin (a,b)}, {@code key} (the label exists) and {@code !key}
 * (it does not). An InferencePool's {@code spec.selector.matchLabels} is the equality-only case
 * ({@link #matchLabels}). An empty selector matches every pod, as in Kubernetes.
 */
public final class LabelSelector {

    private enum Op { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, NOT_EXISTS }

    private record Requirement(String key, Op op, Set<String> values) {

        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (op) {
                case EQUALS, IN -> v != null && values.contains(v);
                // as apimachinery: a pod without the label satisfies key!=value and key notin (...)
                case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
                case EXISTS -> v != null;
                case NOT_EXISTS -> v == null;
            };
        }

        @Override
        public String toString() {
            return switch (op) {
                case EQUALS -> key + "=" + values.iterator().next();
                case NOT_EQUALS -> key + "!=" + values.iterator().next();
                case IN -> key + " in (" + String.join(",", values) + ")";
                case NOT_IN -> key + " notin (" + String.join(",", values) + ")";
                case EXISTS -> key;
                case NOT_EXISTS -> "!" + key;
            };
        }
    }

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = List.copyOf(requirements);
    }

    /**
     * The {@code key=value} requirements alone: what an API server can be asked to filter by (a pod that matches the
     * whole selector has them all), so fewer pods are listed and watched.
     */
    public Map<String, String> equalities() {
        Map<String, String> m = new LinkedHashMap<>();
        requirements.stream().filter(r -> r.op() == Op.EQUALS).forEach(r -> m.put(r.key(), r.values().iterator()
                .next()));
        return m;
    }

    /** An InferencePool's {@code matchLabels}: every label given, with its value. */
    public static LabelSelector matchLabels(Map<String, String> labels) {
        List<Requirement> r = new ArrayList<>();
        new LinkedHashMap<>(labels).forEach((k, v) -> r.add(new Requirement(k, Op.EQUALS, Set.of(v))));
        return new LabelSelector(r);
    }

    /**
     * @throws IllegalArgumentException saying what is wrong and where, for text that is no selector or names a key or
     *                                  value Kubernetes would refuse
     */
    public static LabelSelector parse(String text) {
        List<Requirement> out = new ArrayList<>();
        for (String term : terms(text)) {
            out.add(requirement(term.strip(), text));
        }
        return new LabelSelector(out);
    }

    public boolean matches(Map<String, String> labels) {
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** Splits at the commas outside parentheses. */
    private static List<String> terms(String text) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("selector '" + text + "': ')' without '('");
                }
            } else if (c == ',' && depth == 0) {
                terms.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("selector '" + text + "': '(' without ')'");
        }
        terms.add(text.substring(start));
        if (terms.size() == 1 && terms.getFirst().isBlank()) {
            return List.of();
        }
        return terms;
    }

    private static Requirement requirement(String term, String text) {
        if (term.isEmpty()) {
            throw new IllegalArgumentException("selector '" + text + "': an empty requirement between commas");
        }
        if (term.startsWith("!")) {
            return new Requirement(key(term.substring(1).strip(), text), Op.NOT_EXISTS, Set.of());
        }
        int ne = term.indexOf("!=");
        if (ne >= 0) {
            return single(term.substring(0, ne), Op.NOT_EQUALS, term.substring(ne + 2), text);
        }
        int eq = term.indexOf('=');
        if (eq >= 0) {
            int after = term.startsWith("==", eq) ? eq + 2 : eq + 1;
            return single(term.substring(0, eq), Op.EQUALS, term.substring(after), text);
        }
        String[] words = term.split("\\s+", 3);
        if (words.length == 1) {
            return new Requirement(key(words[0], text), Op.EXISTS, Set.of());
        }
        Op op = switch (words[1]) {
            case "in" -> Op.IN;
            case "notin" -> Op.NOT_IN;
            default -> throw new IllegalArgumentException("selector '" + text + "': '" + term + "' is none of "
                    + "key=value, key!=value, key in (a,b), key notin (a,b), key, !key");
        };
        String rest = words.length == 3 ? words[2].strip() : "";
        if (!rest.startsWith("(") || !rest.endsWith(")")) {
            throw new IllegalArgumentException("selector '" + text + "': '" + term + "' needs its values in "
                    + "parentheses, e.g. " + words[0] + " " + words[1] + " (a,b)");
        }
        Set<String> values = new LinkedHashSet<>();
        for (String v : rest.substring(1, rest.length() - 1).split(",", -1)) {
            values.add(value(words[0], v.strip(), text));
        }
        return new Requirement(key(words[0], text), op, values);
    }

    private static Requirement single(String key, Op op, String value, String text) {
        String k = key(key.strip(), text);
        return new Requirement(k, op, Set.of(value(k, value.strip(), text)));
    }

    private static String key(String key, String text) {
        // homing.dev/ keys are checked as any other: a pod's labels are not the endpoint labels Homing reads there
        String asLabel = key.startsWith(LabelSyntax.HOMING_PREFIX)
                ? "x/" + key.substring(LabelSyntax.HOMING_PREFIX.length()) : key;
        String problem = LabelSyntax.keyProblem(asLabel);
        if (problem != null) {
            throw new IllegalArgumentException("selector '" + text + "': key '" + key + "': " + problem);
        }
        return key;
    }

    private static String value(String key, String value, String text) {
        String problem = LabelSyntax.valueProblem("", value);
        if (problem != null) {
            throw new IllegalArgumentException("selector '" + text + "': value '" + value + "' of " + key + ": "
                    + problem);
        }
        return value;
    }

    /** As apimachinery writes a selector back. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        requirements.forEach(r -> parts.add(r.toString()));
        return String.join(",", parts);
    }
}
