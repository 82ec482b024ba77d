package dev.homing.cli;

import dev.homing.cli.cluster.LocalCluster;
import dev.homing.cli.cluster.PdSplit;
import dev.homing.sim.engine.Preset;
import picocli.CommandLine.Option;

/** The options {@code up} and {@code demo} share: what local cluster to start. */
final class ClusterOptions {

    static final int DEFAULT_PODS = 3;

    @Option(names = "--pods", description = "Simulated vLLM pods to start (default: " + DEFAULT_PODS + ").")
    Integer pods;

    @Option(names = "--model", defaultValue = "Qwen/Qwen2.5-0.5B-Instruct",
            description = "Model the pods serve (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--preset", defaultValue = "cpu-qwen2.5-0.5b",
            description = "Cost-model preset of the simulated pods (default: ${DEFAULT-VALUE}); see docs/SIMULATOR.md.")
    String preset;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address everything binds (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--pod-base-port", defaultValue = "0",
            description = "First pod port; pods take consecutive ports. 0 picks free ports (default).")
    int podBasePort;

    @Option(names = "--seed", description = "Seed for pod names and simulated output (default: random).")
    Long seed;

    @Option(names = "--config", paramLabel = "FILE",
            description = "The router's EndpointPickerConfig (llm-d's format); reloaded when it changes. Default: "
                    + "Homing's built-in profile.")
    java.nio.file.Path config;

    @Option(names = "--precise",
            description = "Pods publish their KV-cache events (vLLM's ZMQ format, with a replay socket) and the router "
                    + "routes by what they say they hold: llm-d's precise prefix-cache config (docs/CONFIGURATION.md, "
                    + "\"Precise\"), or the --config file's policy when one is given.")
    boolean precise;

    @Option(names = "--redis", paramLabel = "URL",
            description = "Share the prefix indexes, the newcomer order and the in-flight load with other routers "
                    + "through this Redis (redis://host:port); without it the router keeps its state in memory.")
    String redis;

    @Option(names = "--ext-proc",
            description = "Run the router as a gateway's endpoint picker: Envoy's ext_proc on --ext-proc-port (TLS, "
                    + "self-signed, as llm-d) and gRPC health on 9003, with a stand-in for Envoy on --port that asks "
                    + "the picker where each request goes (docs/EXT_PROC.md has the Envoy config to use instead).")
    boolean extProc;

    @Option(names = "--ext-proc-port", defaultValue = "9002",
            description = "With --ext-proc: the picker's ext_proc port (default: ${DEFAULT-VALUE}).")
    int extProcPort;

    /** @param port the API port; 0 (the demo's) takes free ports for the picker and its health too */
    LocalCluster.Options toOptions(int port, int adminPort) {
        return toOptions(port, adminPort, null);
    }

    /** @param pd prefill and decode pods in place of {@code --pods}, or null */
    LocalCluster.Options toOptions(int port, int adminPort, PdSplit pd) {
        if (pd != null && pods != null) {
            throw new IllegalArgumentException("give --pods or --pd, not both: --pd P:D starts P prefill and D "
                    + "decode pods");
        }
        int n = pd != null ? pd.pods() : pods != null ? pods : DEFAULT_PODS;
        return new LocalCluster.Options(n, model, Preset.byName(preset), host, port, adminPort, podBasePort,
                seed != null ? seed : System.nanoTime(), config, precise, redis, pd,
                extProc ? new LocalCluster.ExtProc(port == 0 ? 0 : extProcPort, port == 0 ? 0 : 9003, true) : null);
    }
}
