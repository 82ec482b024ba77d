package dev.homing.cli;

import dev.homing.cli.cluster.LocalCluster;
import dev.homing.cli.cluster.PdSplit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code homing up}: a local cluster of simulated vLLM pods behind the router, until interrupted. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start simulated vLLM pods behind the cache-aware router and serve until SIGINT/SIGTERM.")
final class UpCommand implements Callable<Integer> {

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--port", defaultValue = "8000", description = "Router's OpenAI-compatible API port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--admin-port", defaultValue = "9090", description = "Router's admin port (default: ${DEFAULT-VALUE}).")
    int adminPort;

    @Option(names = "--pd", paramLabel = "P:D",
            description = "Disaggregated prefill/decode: P prefill pods (llm-d.ai/role=prefill) and D decode pods "
                    + "(llm-d.ai/role=decode) in place of --pods, and llm-d's P/D config (pd-epp-config.yaml), or the "
                    + "--config file's. Requests go to decode pods; a long uncached prompt also names a prefill pod "
                    + "in x-prefiller-host-port, which these simulated pods, having no P/D sidecar, ignore.")
    String pd;

    @Override
    public Integer call() throws Exception {
        LocalCluster.Options options = cluster.toOptions(port, adminPort, pd == null ? null : PdSplit.parse(pd));
        try (ShutdownSignal signal = new ShutdownSignal(); LocalCluster c = LocalCluster.start(options)) {
            print(c);
            signal.await();
        }
        return 0;
    }

    private void print(LocalCluster c) {
        System.out.println();
        boolean roles = c.pods().stream().anyMatch(p -> p.role() != null);
        String role = roles ? "%-8s " : "";
        if (c.precise()) {
            System.out.printf("  %-48s " + role + "%-21s %s%n", row(roles, "POD", "ROLE", "ADDRESS",
                    "KV EVENTS (REPLAY)"));
        } else {
            System.out.printf("  %-48s " + role + "%s%n", row(roles, "POD", "ROLE", "ADDRESS"));
        }
        for (LocalCluster.Pod p : c.pods()) {
            if (c.precise()) {
                System.out.printf("  %-48s " + role + "%-21s %s (%s)%n", row(roles, p.name(), p.role(),
                        p.address(), p.server().kvEventsEndpoint(), p.server().kvEventsReplayEndpoint()));
            } else {
                System.out.printf("  %-48s " + role + "%s%n", row(roles, p.name(), p.role(), p.address()));
            }
        }
        String admin = "http://" + cluster.host + ":" + c.router().adminPort();
        System.out.println();
        if (c.gateway() != null) {
            System.out.println("  gateway  " + c.baseUrl() + "/v1   (model " + cluster.model + "): a stand-in for Envoy");
            System.out.println("  picker   grpcs://" + cluster.host + ":" + c.router().extProcPort()
                    + "  ext_proc (TLS, self-signed); gRPC health " + cluster.host + ":" + c.router().healthPort());
        } else {
            System.out.println("  router   " + c.baseUrl() + "/v1   (model " + cluster.model + ")");
        }
        System.out.println("  admin    " + admin + "/metrics  /debug/endpoints  /prometheus/targets");
        if (c.precise()) {
            System.out.println("  routing  precise: by the pods' KV-cache events; POST " + admin
                    + "/debug/schedule shows each pod's matched blocks");
        }
        if (roles) {
            System.out.println("  routing  P/D: requests go to decode pods; one whose prompt is long and uncached "
                    + "there also names a prefill pod");
            System.out.println("           in x-prefiller-host-port, which only llm-d's routing sidecar acts on: "
                    + "these simulated decode pods");
            System.out.println("           serve the whole request themselves (docs/CONFIGURATION.md, \"P/D\")");
        }
        System.out.println();
        System.out.println("  try:  curl -s " + c.baseUrl() + "/v1/completions -H 'Content-Type: application/json' \\");
        System.out.println("          -d '{\"model\":\"" + cluster.model + "\",\"prompt\":\"Hello\",\"max_tokens\":20}'");
        System.out.println();
        System.out.println("homing: serving; Ctrl-C to stop");
    }

    /** The columns of a row: the second (the role) only when pods have roles. */
    private static Object[] row(boolean roles, Object first, Object role, Object... rest) {
        List<Object> row = new ArrayList<>();
        row.add(first);
        if (roles) {
            row.add(role == null ? "-" : role);
        }
        row.addAll(Arrays.asList(rest));
        return row.toArray();
    }
}
