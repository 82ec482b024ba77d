package dev.homing.cli.cluster;

/**
 * How many prefill and decode pods a disaggregated local cluster runs: {@code --pd P:D}.
 *
 * @param prefill pods labelled {@code llm-d.ai/role=prefill}, at least 1
 * @param decode  pods labelled {@code llm-d.ai/role=decode}, at least 1
 */
public record PdSplit(int prefill, int decode) {

    public PdSplit {
        if (prefill < 1 || decode < 1) {
            throw new IllegalArgumentException("--pd needs at least one prefill and one decode pod, got "
                    + prefill + ":" + decode);
        }
    }

    /** @throws IllegalArgumentException unless {@code text} is {@code P:D}, two positive whole numbers */
    public static PdSplit parse(String text) {
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 2 || !digits(parts[0]) || !digits(parts[1])) {
            throw new IllegalArgumentException("--pd expects PREFILL:DECODE pod counts such as 1:2, got '" + text + "'");
        }
        return new PdSplit(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.length() <= 4 && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    public int pods() {
        return prefill + decode;
    }
}
