package dev.homing.router.faults;

import dev.homing.protocol.metrics.MetricsText;
import dev.homing.router.fixtures.HttpJson;
import dev.homing.router.fixtures.SteadyLoad;

/**
 * One line per fault, {@code FAULT <name>: sent=.. answered=.. retried=.. failed=.. lost=.. ...}, printed by each
 * fault test so that its numbers can be read off a test run (docs/RELIABILITY.md's table is made of them).
 */
final class FaultReport {

    private FaultReport() {
    }

    /** Requests the router retried on another pod, as its metrics count them (over every pod, or one). */
    static double retried(HttpJson http, String adminUrl, String pod) {
        MetricsText m = http.metrics(adminUrl + "/metrics");
        return m.samples("homing_upstream_retries_total").stream()
                .filter(s -> pod == null || pod.equals(s.label("pod"))).mapToDouble(s -> s.value()).sum();
    }

    static String line(String fault, SteadyLoad.Tally t, double retried, String extra) {
        String line = "FAULT " + fault + ": sent=" + t.sent() + " answered=" + t.answered() + " retried="
                + (long) retried
                + " failed=" + t.failed() + " " + t.errors() + " streamErrors=" + t.streamErrors() + " cut=" + t.cut()
                + " lost=" + t.lost() + (extra.isEmpty() ? "" : " " + extra);
        System.out.println(line);
        return line;
    }
}
