package dev.homing.router.discovery;

import dev.homing.router.precise.events.PublisherAddress;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' rules for label keys and values (apimachinery's {@code IsQualifiedName} and {@code IsValidLabelValue}),
 * so that an endpoint labelled here could carry the same labels as a pod, and a selector that works on one works on
 * the other. A key is an optional DNS-subdomain prefix and {@code /}, then a name of at most 63 characters,
 * alphanumerics, {@code -}, {@code _} and {@code .}, starting and ending alphanumeric; a value is empty or such a name.
 *
 * <p>One exception: Homing's own keys under {@value #HOMING_PREFIX} hold ZMQ addresses ({@code tcp://host:port}),
 * which no label value can; in Kubernetes they would be annotations. Their values must be {@code tcp://HOST:PORT},
 * the address the router dials, and only the keys Homing reads are accepted there, so a misspelt one is an error
 * rather than silently ignored.
 */
final class LabelSyntax {

    static final String HOMING_PREFIX = "homing.dev/";
    /** The {@value #HOMING_PREFIX} keys Homing reads. */
    static final List<String> HOMING_KEYS = List.of(PublisherAddress.EVENTS_LABEL, PublisherAddress.REPLAY_LABEL);

    private static final String TCP = "tcp://";
    private static final int MAX_NAME = 63;
    private static final int MAX_PREFIX = 253;
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String NAME_RULE = "consist of alphanumeric characters, '-', '_' or '.', and start and end "
            + "with an alphanumeric character";

    private LabelSyntax() {
    }

    /** @return what is wrong with {@code key} as a label key, or null when nothing is */
    static String keyProblem(String key) {
        if (key.isEmpty()) {
            return "a label key must not be empty";
        }
        int slash = key.indexOf('/');
        if (slash >= 0 && key.indexOf('/', slash + 1) >= 0) {
            return "a label key has at most one '/' (an optional DNS subdomain prefix, then a name, e.g. "
                    + "'llm-d.ai/role')";
        }
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty()) {
                return "the prefix before '/' must not be empty";
            }
            if (prefix.length() > MAX_PREFIX) {
                return "the prefix before '/' must be at most " + MAX_PREFIX + " characters";
            }
            if (!DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return "the prefix before '/' must be a DNS subdomain: lower-case alphanumerics, '-' or '.', "
                        + "starting and ending with an alphanumeric (e.g. 'llm-d.ai')";
            }
        }
        String name = key.substring(slash + 1);
        if (name.isEmpty()) {
            return "the name after '/' must not be empty";
        }
        if (name.length() > MAX_NAME) {
            return "the name part must be at most " + MAX_NAME + " characters";
        }
        if (!NAME.matcher(name).matches()) {
            return "the name part must " + NAME_RULE;
        }
        if (key.startsWith(HOMING_PREFIX) && !HOMING_KEYS.contains(key)) {
            return "Homing reads no such label; its labels are " + String.join(", ", HOMING_KEYS);
        }
        return null;
    }

    /**
     * The router dials a publisher's address (a SUB, or a DEALER for the replay socket, connecting to it), so it must
     * be {@code tcp://HOST:PORT} naming where the pod is: {@code tcp://*:PORT} is how the pod binds, and means
     * nothing to dial.
     */
    private static String publisherProblem(String key, String value) {
        String expected = "the value of " + key + " must be tcp://HOST:PORT, the address the router dials (e.g. "
                + "tcp://10.0.0.7:5557, tcp://[fd00::7]:5557)";
        if (!value.startsWith(TCP)) {
            return expected + ", got '" + value + "'";
        }
        String address = value.substring(TCP.length());
        if (address.startsWith("*:")) {
            return expected + ", got '" + value + "': '*' is where a pod binds, not an address to dial; name the "
                    + "pod's host";
        }
        try {
            EndpointAddress.parse(address);
            return null;
        } catch (IllegalArgumentException e) {
            return expected + ", got '" + value + "': " + e.getMessage();
        }
    }

    /** @return what is wrong with {@code value} as the value of (valid) {@code key}, or null when nothing is */
    static String valueProblem(String key, String value) {
        if (HOMING_KEYS.contains(key)) {
            return publisherProblem(key, value);
        }
        if (value.isEmpty()) {
            return null;
        }
        if (value.length() > MAX_NAME) {
            return "a label value must be at most " + MAX_NAME + " characters";
        }
        if (!NAME.matcher(value).matches()) {
            return "a label value must be empty or " + NAME_RULE;
        }
        return null;
    }
}
