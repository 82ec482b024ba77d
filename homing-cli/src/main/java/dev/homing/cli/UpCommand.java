package dev.homing.cli;

import dev.homing.cli.cluster.LocalCluster;
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

    @Override
    public Integer call() throws Exception {
        try (ShutdownSignal signal = new ShutdownSignal(); LocalCluster c = LocalCluster.start(cluster.toOptions(port, adminPort))) {
            print(c);
            signal.await();
        }
        return 0;
    }

    private void print(LocalCluster c) {
        System.out.println();
        if (c.precise()) {
            System.out.printf("  %-48s %-21s %s%n", "POD", "ADDRESS", "KV EVENTS (REPLAY)");
        } else {
            System.out.printf("  %-48s %s%n", "POD", "ADDRESS");
        }
        for (LocalCluster.Pod p : c.pods()) {
            if (c.precise()) {
                System.out.printf("  %-48s %-21s %s (%s)%n", p.name(), p.address(), p.server().kvEventsEndpoint(),
                        p.server().kvEventsReplayEndpoint());
            } else {
                System.out.printf("  %-48s %s%n", p.name(), p.address());
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
        System.out.println();
        System.out.println("  try:  curl -s " + c.baseUrl() + "/v1/completions -H 'Content-Type: application/json' \\");
        System.out.println("          -d '{\"model\":\"" + cluster.model + "\",\"prompt\":\"Hello\",\"max_tokens\":20}'");
        System.out.println();
        System.out.println("homing: serving; Ctrl-C to stop");
    }
}
