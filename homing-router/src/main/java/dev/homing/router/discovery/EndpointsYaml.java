package dev.homing.router.discovery;

import dev.homing.core.config.ConfigException;
import dev.homing.core.config.ConfigNode;
import dev.homing.core.config.MappingReader;
import dev.homing.core.config.YamlReader;
import dev.homing.core.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The endpoints file ({@code homing serve --endpoints-file}), read strictly as Kubernetes decodes a manifest: unknown
 * fields and values of the wrong kind are errors naming their line.
 *
 * <pre>{@code
 * endpoints:
 * - name: vllm-prefill-0          # optional: defaults to the address
 *   address: 10.0.0.11:8000       # or host: 10.0.0.11 and port: 8000
 *   labels:                       # optional; Kubernetes' label syntax
 *     llm-d.ai/role: prefill
 * - name: vllm-decode-0
 *   host: 10.0.0.21
 *   port: 8000
 *   labels:
 *     llm-d.ai/role: decode
 * }</pre>
 *
 * An empty list is allowed (every request then gets 503 until the file lists some); two endpoints may share neither a
 * name nor an address.
 */
public final class EndpointsYaml {

    private static final Set<String> TOP = Set.of("endpoints");
    private static final Set<String> ENDPOINT = Set.of("name", "address", "host", "port", "labels");

    private EndpointsYaml() {
    }

    /** @param source the file name, for messages */
    public static List<Endpoint> parse(String text, String source) throws ConfigException {
        ConfigNode root = YamlReader.read(text, source, "an endpoints file");
        if (root == null) {
            throw new ConfigException(source, 0, "the file is empty; expected 'endpoints:' and a list of endpoints "
                    + "(each with name, address or host and port, labels)");
        }
        ConfigNode list = MappingReader.of(source, "the endpoints file", root, TOP).node("endpoints");
        if (list == null) {
            throw new ConfigException(source, root.line(), "the endpoints file needs 'endpoints:', a list of endpoints");
        }
        if (!(list instanceof ConfigNode.Sequence items)) {
            throw new ConfigException(source, list.line(), "'endpoints' must be a list, got " + list.kind());
        }
        List<Endpoint> out = new ArrayList<>();
        Map<String, Integer> lineByName = new HashMap<>();
        Map<String, Integer> lineByAddress = new HashMap<>();
        for (int i = 0; i < items.items().size(); i++) {
            ConfigNode item = items.items().get(i);
            Endpoint e = endpoint(source, item, "endpoints[" + i + "]");
            Integer sameName = lineByName.putIfAbsent(e.name(), item.line());
            if (sameName != null) {
                throw new ConfigException(source, item.line(), "endpoint name '" + e.name()
                        + "' is already used at line " + sameName);
            }
            Integer sameAddress = lineByAddress.putIfAbsent(e.address(), item.line());
            if (sameAddress != null) {
                throw new ConfigException(source, item.line(), "address " + e.address()
                        + " is already the endpoint at line " + sameAddress);
            }
            out.add(e);
        }
        return out;
    }

    private static Endpoint endpoint(String source, ConfigNode node, String what) throws ConfigException {
        MappingReader m = MappingReader.of(source, what, node, ENDPOINT);
        String address = m.string("address", false);
        String host = m.string("host", false);
        ConfigNode port = m.node("port");
        EndpointAddress at;
        if (address != null) {
            if (host != null || port != null) {
                throw new ConfigException(source, m.line("address"), what
                        + ": give either 'address' or 'host' and 'port', not both");
            }
            at = address(source, m.line("address"), what, () -> EndpointAddress.parse(address.strip()));
        } else if (host == null || port == null) {
            throw new ConfigException(source, m.line(), what + " needs 'address: HOST:PORT' (or 'host' and 'port')");
        } else if (!(port instanceof ConfigNode.Scalar s) || !(s.value() instanceof Integer n)) {
            throw new ConfigException(source, port.line(), "'port' in " + what + " must be a whole number, got "
                    + port.kind() + (port instanceof ConfigNode.Scalar s && s.value() != null ? " '" + s.text() + "'"
                    : ""));
        } else {
            int line = n < 1 || n > 65535 ? port.line() : m.line("host");
            at = address(source, line, what, () -> EndpointAddress.of(host.strip(), n));
        }
        String name = m.string("name", false);
        if (name != null && name.isBlank()) {
            throw new ConfigException(source, m.line("name"), "'name' in " + what + " must not be empty");
        }
        String nameProblem = name == null ? null : EndpointName.problem(name.strip());
        if (nameProblem != null) {
            throw new ConfigException(source, m.line("name"), what + ": " + nameProblem);
        }
        return new Endpoint(name == null ? at.text() : name.strip(), at.host(), at.port(), labels(source, m, what));
    }

    private static EndpointAddress address(String source, int line, String what,
                                           Supplier<EndpointAddress> parse)
            throws ConfigException {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source, line, what + ": " + e.getMessage());
        }
    }

    private static Map<String, String> labels(String source, MappingReader m, String what)
            throws ConfigException {
        ConfigNode node = m.node("labels");
        Map<String, String> labels = new LinkedHashMap<>();
        if (node == null) {
            return labels;
        }
        if (!(node instanceof ConfigNode.Mapping l)) {
            throw new ConfigException(source, node.line(), "'labels' in " + what + " must be a mapping of KEY: VALUE, "
                    + "got " + node.kind());
        }
        for (ConfigNode.Entry e : l.entries().values()) {
            String value;
            if (e.value() instanceof ConfigNode.Scalar s && (s.value() == null || s.value() instanceof String)) {
                value = s.value() == null ? "" : (String) s.value(); // an empty YAML value is an empty label
            } else {
                throw new ConfigException(source, e.keyLine(), "label '" + e.key() + "' of " + what
                        + " must be a string, got " + e.value().kind()
                        + (e.value() instanceof ConfigNode.Scalar ? "; quote it, as Kubernetes requires" : ""));
            }
            String problem = LabelSyntax.keyProblem(e.key());
            if (problem == null) {
                problem = LabelSyntax.valueProblem(e.key(), value);
            }
            if (problem != null) {
                throw new ConfigException(source, e.keyLine(), "label '" + e.key() + "' of " + what + ": " + problem);
            }
            labels.put(e.key(), value);
        }
        return labels;
    }
}
