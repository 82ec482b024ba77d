package dev.homing.router.discovery;

import dev.homing.core.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Endpoints named on the command line: {@code name=host:port;key=value;key=value,name=host:port,...}. Items are
 * separated by commas; a bare {@code host:port} is named by its address, as the endpoints file names one; labels
 * follow their endpoint after semicolons (neither character can appear in a Kubernetes label, so neither needs
 * quoting). Label keys and values follow Kubernetes'
 * rules ({@link LabelSyntax}). Two endpoints may share neither a name nor an address.
 */
public final class StaticEndpoints {

    /** The syntax, for help texts and error messages. */
    public static final String SYNTAX = "NAME=HOST:PORT[;KEY=VALUE...][,...]";

    private StaticEndpoints() {
    }

    /**
     * @throws IllegalArgumentException naming the offending item and what is wrong with it; for a spec that names no
     *                                  endpoint at all too
     */
    public static List<Endpoint> parse(String spec) {
        List<Endpoint> out = new ArrayList<>();
        Map<String, String> itemByName = new HashMap<>();
        Map<String, String> itemByAddress = new HashMap<>();
        for (String raw : spec == null ? new String[0] : spec.split(",")) {
            String item = raw.strip();
            if (item.isEmpty()) {
                continue;
            }
            Endpoint e = endpoint(item);
            String sameName = itemByName.putIfAbsent(e.name(), item);
            if (sameName != null) {
                throw new IllegalArgumentException("endpoint '" + item + "': the name '" + e.name()
                        + "' is already endpoint '" + sameName + "'");
            }
            String sameAddress = itemByAddress.putIfAbsent(e.address(), item);
            if (sameAddress != null) {
                throw new IllegalArgumentException("endpoint '" + item + "': the address " + e.address()
                        + " is already endpoint '" + sameAddress + "'");
            }
            out.add(e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no endpoint given; expected " + SYNTAX);
        }
        return out;
    }

    private static Endpoint endpoint(String item) {
        String[] parts = item.split(";", -1);
        String head = parts[0].strip();
        int eq = head.indexOf('=');
        String name = eq >= 0 ? head.substring(0, eq).strip() : null;
        String address = eq >= 0 ? head.substring(eq + 1).strip() : head;
        if (name != null && name.isEmpty()) {
            throw new IllegalArgumentException("endpoint '" + item + "': empty name; expected " + SYNTAX);
        }
        String nameProblem = name == null ? null : EndpointName.problem(name);
        if (nameProblem != null) {
            throw new IllegalArgumentException("endpoint '" + item + "': " + nameProblem);
        }
        EndpointAddress at;
        try {
            at = EndpointAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("endpoint '" + item + "': " + e.getMessage() + "; expected " + SYNTAX);
        }
        if (name == null) {
            name = at.text(); // as the endpoints file names a bare address
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String label = parts[i].strip();
            if (label.isEmpty()) {
                continue; // a trailing ';'
            }
            int leq = label.indexOf('=');
            if (leq < 0) {
                throw new IllegalArgumentException("endpoint '" + item + "': label '" + label
                        + "' has no value; expected KEY=VALUE (KEY= for an empty value)");
            }
            String key = label.substring(0, leq).strip();
            String value = label.substring(leq + 1).strip();
            String problem = LabelSyntax.keyProblem(key);
            if (problem == null) {
                problem = LabelSyntax.valueProblem(key, value);
            }
            if (problem != null) {
                throw new IllegalArgumentException("endpoint '" + item + "': label '" + label + "': " + problem);
            }
            if (labels.put(key, value) != null) {
                throw new IllegalArgumentException("endpoint '" + item + "': label '" + key + "' is given twice");
            }
        }
        return new Endpoint(name, at.host(), at.port(), labels);
    }
}
