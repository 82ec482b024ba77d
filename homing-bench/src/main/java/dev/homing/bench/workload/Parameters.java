package dev.homing.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters given to one workload, checked against its {@link WorkloadSpec}: an unknown name or a bad value is an
 * {@link IllegalArgumentException} naming it and the parameters the workload knows. Every value read is remembered,
 * so the workload can say exactly what made it.
 */
final class Parameters {

    /** inference-perf's older names for shared-prefix parameters. */
    private static final Map<String, String> ALIASES = Map.of(
            "num_unique_system_prompts", "num_groups",
            "num_users_per_system_prompt", "num_prompts_per_group");

    private final WorkloadSpec spec;
    private final Map<String, WorkloadSpec.Parameter> known = new LinkedHashMap<>();
    private final Map<String, String> given = new LinkedHashMap<>();
    private final Map<String, Object> used = new TreeMap<>();

    Parameters(WorkloadSpec spec, Map<String, String> values) {
        this.spec = spec;
        spec.parameters().forEach(p -> known.put(p.name(), p));
        values.forEach((rawName, value) -> {
            String name = rawName == null ? "" : rawName.trim();
            name = known.containsKey(name) ? name : ALIASES.getOrDefault(name, name);
            if (!known.containsKey(name)) {
                throw new IllegalArgumentException("unknown parameter '" + rawName + "' for workload " + spec.name()
                        + "; known: " + knownNames());
            }
            if (value == null) {
                throw new IllegalArgumentException("parameter " + name + " of workload " + spec.name()
                        + " has no value; known: " + knownNames());
            }
            if (given.put(name, value.trim()) != null) {
                throw new IllegalArgumentException("parameter " + name + " of workload " + spec.name()
                        + " is given twice (once under an alias); known: " + knownNames());
            }
        });
    }

    boolean isGiven(String name) {
        return given.containsKey(check(name));
    }

    /** The value given, else the default; empty when neither. */
    String string(String name) {
        String v = raw(name);
        if (!v.isEmpty()) {
            used.put(name, v);
        }
        return v;
    }

    int integer(String name, int min) {
        String v = required(name);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw bad(name, v, "a whole number");
        }
        if (n < min) {
            throw bad(name, v, "at least " + min);
        }
        used.put(name, n);
        return n;
    }

    long longInteger(String name) {
        String v = required(name);
        try {
            long n = Long.parseLong(v);
            used.put(name, n);
            return n;
        } catch (NumberFormatException e) {
            throw bad(name, v, "a whole number");
        }
    }

    /** A finite number at least {@code min}, or above it when {@code exclusive}. */
    double decimal(String name, double min, boolean exclusive) {
        String v = required(name);
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw bad(name, v, "a number");
        }
        if (!Double.isFinite(d) || d < min || (exclusive && d == min)) {
            throw bad(name, v, (exclusive ? "above " : "at least ") + min);
        }
        used.put(name, d);
        return d;
    }

    boolean bool(String name) {
        String v = required(name);
        boolean b = switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw bad(name, v, "true or false");
        };
        used.put(name, b);
        return b;
    }

    LengthDistribution length(String name, int floor) {
        String v = required(name);
        try {
            LengthDistribution d = LengthDistribution.parse(v, floor);
            used.put(name, d.toString());
            return d;
        } catch (IllegalArgumentException e) {
            throw bad(name, v, "N or mean:std_dev:min:max (" + e.getMessage() + ")");
        }
    }

    /** Records a value derived from the parameters (the effective seed, say) among those that made the workload. */
    void note(String name, Object value) {
        used.put(name, value);
    }

    /** Every value read or noted, for {@link Workload#parameters()}. */
    Map<String, Object> used() {
        return Map.copyOf(used);
    }

    IllegalArgumentException bad(String name, String value, String expected) {
        return new IllegalArgumentException("parameter " + name + " of workload " + spec.name() + ": bad value '"
                + value + "', expected " + expected + "; known: " + knownNames());
    }

    private String required(String name) {
        String v = raw(name);
        if (v.isEmpty()) {
            throw new IllegalArgumentException("parameter " + name + " of workload " + spec.name()
                    + " is required; known: " + knownNames());
        }
        return v;
    }

    private String raw(String name) {
        String v = given.get(check(name));
        return v != null ? v : known.get(name).defaultValue();
    }

    private String check(String name) {
        if (!known.containsKey(name)) {
            throw new IllegalStateException("workload " + spec.name() + " reads an undeclared parameter " + name);
        }
        return name;
    }

    private String knownNames() {
        List<String> names = new ArrayList<>(known.keySet());
        return String.join(", ", names);
    }
}
