package dev.homing.bench.policy;

import dev.homing.bench.workload.Prompt;

/** Requests for policy tests: a completion prompt's text and token ids. */
final class Requests {

    private static int next;

    private Requests() {
    }

    static PolicyRequest text(String text) {
        return new PolicyRequest("t-" + next++, null, Prompt.text(text, new int[] {1}), new int[] {1}, 16);
    }

    static PolicyRequest tokens(int... ids) {
        return new PolicyRequest("t-" + next++, null, Prompt.text("x", ids), ids, 16);
    }

    static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }
}
