package dev.homing.router.discovery;

/**
 * What an endpoint's name may be: the pod's name, any text without whitespace or control characters, since it goes
 * out as written in the {@code x-homing-pod} header and in metric labels ({@code pod="..."}).
 */
final class EndpointName {

    private EndpointName() {
    }

    /** @return what is wrong with {@code name}, or null when nothing is */
    static String problem(String name) {
        if (name.isEmpty()) {
            return "the name must not be empty";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                return "the name '" + name.replaceAll("\\p{Cntrl}", "?") + "' must have no spaces or control "
                        + "characters (it is sent in the x-homing-pod header and in metric labels)";
            }
        }
        return null;
    }
}
