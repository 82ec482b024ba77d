package dev.homing.cli;

import dev.homing.bench.jmh.JmhMain;
import dev.homing.bench.live.LiveDriver;
import dev.homing.bench.live.TerminalProgress;
import dev.homing.bench.policy.Policies;
import dev.homing.bench.policy.PolicySpec;
import dev.homing.bench.report.ReportFiles;
import dev.homing.bench.report.SeedsReport;
import dev.homing.bench.report.StatusLine;
import dev.homing.bench.report.TableReport;
import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.virtual.Scenario;
import dev.homing.bench.virtual.Scenarios;
import dev.homing.bench.virtual.VirtualBench;
import dev.homing.bench.workload.HitRateBound;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.WorkloadSpec;
import dev.homing.bench.workload.Workloads;
import dev.homing.sim.engine.Preset;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code homing bench}: routing policies compared on a workload, in virtual time against simulated pods or live
 * against a running server; prints the table and writes {@code report.json} and {@code report.html}. Its subcommands
 * measure the router's own code (JMH, heap footprint).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Compare routing policies on a workload and report time to first token, inter-token latency, "
                    + "throughput, prefix-cache hit rate against its bound, and per-pod load.",
            "Virtual (the default): every policy on a fresh fleet of simulated pods in virtual time, from a "
                    + "scenario. Live: the workload sent once to a running OpenAI-compatible server "
                    + "(Homing, llm-d, a vLLM pod), labelled 'live'.",
            "Prints a table and writes report.json and report.html (one offline page with plots) into --out.",
            "Subcommands measure the router's own hot paths."},
        subcommands = {BenchCommand.Jmh.class, BenchCommand.Footprint.class, BenchExtProcCommand.class,
            BenchReplicasCommand.class, BenchProxyCommand.class, BenchStreamsCommand.class})
final class BenchCommand implements Callable<Integer> {

    static final String DEFAULT_SCENARIO = "quick";
    static final String DEFAULT_LIVE_WORKLOAD = "shared-prefix";
    /** vLLM's default on CUDA, for a live fleet we know nothing of. */
    static final int DEFAULT_BLOCK_SIZE = 16;
    private static final String LIVE_LABEL = "live";
    private static final Set<String> SCENARIO_KEYS = Set.of(Scenarios.PODS, Scenarios.PRESET, Scenarios.POLICIES,
            Scenarios.SCRAPE, Scenarios.KV_LAG);
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Target target;

    @Option(names = "--scenario", paramLabel = "NAME", description = "Virtual: the experiment to run (default: "
            + DEFAULT_SCENARIO + "). Live: take its workload and parameters. Scenarios are listed below.")
    String scenario;

    @Option(names = "--workload", paramLabel = "NAME", description = "Run this workload instead of the scenario's "
            + "(live default: " + DEFAULT_LIVE_WORKLOAD + "), with its own defaults. Workloads are listed below.")
    String workload;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "A workload parameter (listed below), or a "
            + "scenario override: pods, preset, policies, scrape_interval, kv_event_lag. Repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--policies", paramLabel = "A,B", split = ",", description = "Virtual: the policies to compare, "
            + "in report order (default: the scenario's, every policy). Policies are listed below.")
    List<String> policies = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the workload and of every "
            + "random choice (default: ${DEFAULT-VALUE}); the same seed gives the same virtual report.")
    long seed;

    @Option(names = "--seeds", paramLabel = "A-B|A,B,...", description = "Virtual: run the scenario once per seed "
            + "(e.g. 1-4) and print each policy's numbers seed by seed with their mean, in total and stage by stage; "
            + "each seed's report goes into --out/seed-N, the table into seeds.txt and seeds.json.")
    String seeds;

    @Option(names = "--block-size", paramLabel = "TOKENS", description = "Live: the fleet's KV block size, for the "
            + "hit-rate bound (default: the scenario's preset, else " + DEFAULT_BLOCK_SIZE + ").")
    Integer blockSize;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the report "
            + "(default: bench-results/<scenario>-<timestamp>).")
    Path out;

    @Option(names = "--no-html", description = "Write report.json only.")
    boolean noHtml;

    /** {@code --virtual} or {@code --live URL}, not both. */
    static final class Target {
        @Option(names = "--virtual", required = true, description = "Virtual time against simulated pods (default).")
        boolean virtual;

        @Option(names = "--live", required = true, paramLabel = "URL", description = "Base URL of a running "
                + "OpenAI-compatible server (Homing, llm-d, vLLM): http://HOST:PORT")
        URI live;
    }

    /**
     * Picocli injects the spec here as it builds the command: the footer is rendered from the catalogs when help is
     * asked for, so it can never list a workload, policy or scenario that is not there, or miss one that is.
     */
    @Spec
    void spec(CommandSpec spec) {
        spec.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> catalogHelp(help.commandSpec().usageMessage().width()));
    }

    @Override
    public Integer call() {
        if (seeds != null) {
            return runSeeds();
        }
        try {
            BenchReport report = live() ? runLive() : runVirtual();
            PrintStream stdout = System.out;
            stdout.print(TableReport.render(report));
            Path dir = out != null ? out : Path.of("bench-results", fileSafe(report.scenario()) + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            stdout.println();
            for (Path written : ReportFiles.write(report, dir, !noHtml)) {
                stdout.println("wrote " + written.toAbsolutePath());
            }
            stdout.println("reproduce: " + report.command());
            List<String> idle = report.runs().stream().filter(r -> r.records().stream().noneMatch(x -> x.ok()))
                    .map(PolicyRun::policy).toList();
            if (!idle.isEmpty()) {
                System.err.println("homing bench: no request was served under " + String.join(", ", idle));
                return 1;
            }
            return 0;
        } catch (java.io.IOException e) {
            System.err.println("homing bench: cannot write the report: " + e.getMessage());
            return 1;
        }
    }

    /** {@code --seeds}: the virtual run once per seed, then the table across them. */
    private int runSeeds() {
        if (live()) {
            throw new IllegalArgumentException("--seeds is for --virtual; a live run is one run");
        }
        List<Long> list = seedList(seeds);
        String name = scenario == null ? DEFAULT_SCENARIO : scenario;
        Path dir = out != null ? out : Path.of("bench-results", fileSafe(name) + "-seeds-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        SeedsReport table = new SeedsReport(name);
        PrintStream stdout = System.out;
        List<String> idle = new ArrayList<>();
        try {
            for (long s : list) {
                seed = s;
                BenchReport report = runVirtual();
                Path written = ReportFiles.write(report, dir.resolve("seed-" + s), !noHtml).get(0).getParent();
                stdout.println("seed " + s + ": wrote " + written.toAbsolutePath() + " (" + report.command() + ")");
                report.runs().stream().filter(r -> r.records().stream().noneMatch(x -> x.ok()))
                        .forEach(r -> idle.add(r.policy() + " (seed " + s + ")"));
                table.add(report);
            }
            String text = table.render();
            stdout.println();
            stdout.print(text);
            Files.writeString(dir.resolve("seeds.txt"), text, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("seeds.json"), table.json(), StandardCharsets.UTF_8);
            stdout.println();
            stdout.println("wrote " + dir.resolve("seeds.txt").toAbsolutePath() + " and seeds.json");
        } catch (java.io.IOException e) {
            System.err.println("homing bench: cannot write the report: " + e.getMessage());
            return 1;
        }
        if (!idle.isEmpty()) {
            System.err.println("homing bench: no request was served under " + String.join(", ", idle));
            return 1;
        }
        return 0;
    }

    /** {@code A-B} (inclusive) or {@code A,B,...}: distinct seeds in the order given. */
    static List<Long> seedList(String text) {
        String t = text.trim();
        List<Long> out = new ArrayList<>();
        try {
            int dash = t.indexOf('-', 1);
            if (dash > 0 && !t.contains(",")) {
                long from = Long.parseLong(t.substring(0, dash).trim());
                long to = Long.parseLong(t.substring(dash + 1).trim());
                if (to < from || to - from >= 1000) {
                    throw new IllegalArgumentException("--seeds: expected A-B with A <= B and at most 1,000 seeds, "
                            + "got " + text);
                }
                for (long s = from; s <= to; s++) {
                    out.add(s);
                }
            } else {
                for (String part : t.split(",")) {
                    long s = Long.parseLong(part.trim());
                    if (out.contains(s)) {
                        throw new IllegalArgumentException("--seeds: seed " + s + " is named twice in " + text);
                    }
                    out.add(s);
                }
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seeds: expected A-B or A,B,... of whole numbers, got " + text);
        }
        return out;
    }

    private boolean live() {
        return target != null && target.live != null;
    }

    private BenchReport runVirtual() {
        if (blockSize != null) {
            throw new IllegalArgumentException("--block-size is for --live; a scenario's preset fixes its own");
        }
        String name = scenario == null ? DEFAULT_SCENARIO : scenario;
        Scenario s = Scenarios.get(name, params);
        if (workload != null && !workload.equals(s.workload())) {
            // another workload takes its own defaults: the scenario's parameters were sized for its own
            Map<String, String> own = new LinkedHashMap<>();
            own.put("model", s.workloadParameters().get("model"));
            params.forEach((k, v) -> {
                if (!SCENARIO_KEYS.contains(k)) {
                    own.put(k, v);
                }
            });
            s = new Scenario(s.name(), s.description(), s.preset(), s.pods(), workload, own, s.policies(),
                    s.scrapeInterval(), s.kvEventLag());
        }
        VirtualProgress progress = new VirtualProgress(System.err, StatusLine.terminalAttached());
        BenchReport report;
        try {
            report = VirtualBench.run(s, policies, seed, progress);
        } finally {
            progress.finish();
        }
        // the names as given: a LABEL=FILE policy runs under its label, but only LABEL=FILE reproduces it
        return withCommand(report, policies.isEmpty() ? s.policies() : policies);
    }

    private BenchReport runLive() {
        if (!policies.isEmpty()) {
            throw new IllegalArgumentException("--policies is for --virtual; a live run measures whatever routes "
                    + "behind the URL");
        }
        URI url = target.live;
        if (url.getScheme() == null || !url.getScheme().matches("https?") || url.getHost() == null) {
            throw new IllegalArgumentException("--live: expected a URL such as http://localhost:8000, got " + url);
        }
        String name = workload == null ? DEFAULT_LIVE_WORKLOAD : workload;
        Map<String, String> workloadParams = new LinkedHashMap<>();
        int block = DEFAULT_BLOCK_SIZE;
        if (scenario != null) {
            Scenario s = Scenarios.get(scenario, params);
            block = Preset.byName(s.preset()).engine().blockSize();
            if (workload == null || workload.equals(s.workload())) {
                name = s.workload();
                workloadParams.putAll(s.workloadParameters());
            }
        }
        for (Map.Entry<String, String> e : params.entrySet()) {
            if (SCENARIO_KEYS.contains(e.getKey())) {
                throw new IllegalArgumentException("--param " + e.getKey() + " changes a virtual fleet; a live run "
                        + "has the fleet behind the URL");
            }
            workloadParams.put(e.getKey(), e.getValue());
        }
        if (blockSize != null) {
            if (blockSize < 1) {
                throw new IllegalArgumentException("--block-size: expected a whole number >= 1, got " + blockSize);
            }
            block = blockSize;
        }
        Workload w = Workloads.create(name, workloadParams, seed);
        PolicyRun run = new LiveDriver().run(url, w, LIVE_LABEL, TerminalProgress.stderr());
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("url", url.toString());
        parameters.put("block_size", block);
        parameters.put("workload", w.name());
        parameters.put("workload_parameters", w.parameters());
        BenchReport report = new BenchReport(scenario == null ? w.name() : scenario, "live", seed, List.of(run),
                Map.of(w.name(), HitRateBound.of(w, block)), parameters, "");
        return withCommand(report, List.of());
    }

    /**
     * The report with the command line that reproduces it: every option that changes what runs, the seed always (a
     * default may change) and the policies that ran (the catalog may grow); not where it was written.
     */
    private BenchReport withCommand(BenchReport r, List<String> ran) {
        List<String> args = new ArrayList<>(List.of("homing", "bench"));
        if (live()) {
            args.addAll(List.of("--live", target.live.toString()));
        } else {
            args.add("--virtual");
        }
        if (scenario != null || !live()) {
            args.addAll(List.of("--scenario", scenario == null ? DEFAULT_SCENARIO : scenario));
        }
        if (workload != null) {
            args.addAll(List.of("--workload", workload));
        }
        params.forEach((k, v) -> args.addAll(List.of("--param", k + "=" + v)));
        if (!ran.isEmpty()) {
            args.addAll(List.of("--policies", String.join(",", ran)));
        }
        if (blockSize != null) {
            args.addAll(List.of("--block-size", blockSize.toString()));
        }
        args.addAll(List.of("--seed", Long.toString(seed)));
        String command = String.join(" ", args.stream().map(BenchCommand::shellQuote).toList());
        return r.withCommand(command);
    }

    static String shellQuote(String arg) {
        return SHELL_SAFE.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    private static String fileSafe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The catalogs of workloads (with their parameters), policies and scenarios, wrapped to {@code width}. */
    static String catalogHelp(int width) {
        StringBuilder b = new StringBuilder();
        b.append('\n');
        wrap(b, "", 0, "Scenarios (--scenario NAME; --param pods=N, preset=P, policies=A,B, scrape_interval=50ms "
                + "and kv_event_lag=5ms change the fleet):", width);
        for (Scenario s : Scenarios.catalog()) {
            entry(b, s.name(), s.description() + " [" + s.pods() + " pods, " + s.preset() + ", workload "
                    + s.workload() + "]", width);
        }
        b.append('\n');
        wrap(b, "", 0, "Policies (--policies A,B,...):", width);
        for (PolicySpec p : Policies.catalog()) {
            entry(b, p.name(), p.description(), width);
        }
        for (PolicySpec p : Policies.extras()) {
            entry(b, p.name(), "(named only) " + p.description(), width);
        }
        entry(b, "LABEL=FILE", "your own EndpointPickerConfig, run as 'homing serve --config FILE' runs it and "
                + "reported as LABEL: try weights on a workload or trace before deploying them", width);
        b.append('\n');
        wrap(b, "", 0, "Workloads (--workload NAME), each with its parameters (--param KEY=VALUE):", width);
        for (WorkloadSpec w : Workloads.catalog()) {
            entry(b, w.name(), w.description(), width);
            for (WorkloadSpec.Parameter p : w.parameters()) {
                String key = "    " + p.name() + (p.defaultValue().isEmpty() ? "" : "=" + p.defaultValue());
                wrap(b, key, 30, p.description(), width);
            }
        }
        return b.toString();
    }

    private static void entry(StringBuilder b, String name, String description, int width) {
        wrap(b, "  " + name, 24, description, width);
    }

    /** {@code head} in a column of {@code indent}, then {@code text} wrapped beside it (or below, when too wide). */
    private static void wrap(StringBuilder b, String head, int indent, String text, int width) {
        int room = Math.max(20, width - indent);
        String pad = " ".repeat(indent);
        StringBuilder line = new StringBuilder(head);
        if (!head.isEmpty() && head.length() + 1 > indent) {
            b.append(head).append('\n');
            line = new StringBuilder(pad);
        } else {
            line.append(" ".repeat(indent - head.length()));
        }
        int used = 0;
        for (String word : text.trim().split("\\s+")) {
            if (used > 0 && used + 1 + word.length() > room) {
                b.append(line).append('\n');
                line = new StringBuilder(pad);
                used = 0;
            }
            if (used > 0) {
                line.append(' ');
                used++;
            }
            line.append(word);
            used += word.length();
        }
        b.append(line).append('\n');
    }

    /**
     * One line on stderr redrawn in place as the policies' runs advance (they run in parallel); only on a terminal,
     * and at most ten times a second.
     */
    static final class VirtualProgress implements BiConsumer<String, Double> {

        private final StatusLine line;
        private final Map<String, Double> done = new LinkedHashMap<>();

        VirtualProgress(PrintStream err, boolean enabled) {
            this.line = new StatusLine(err, enabled, System::nanoTime);
        }

        @Override
        public synchronized void accept(String policy, Double fraction) {
            done.put(policy, fraction);
            line.draw(fraction >= 1, this::text);
        }

        synchronized void finish() {
            if (!done.isEmpty()) {
                line.draw(true, this::text);
            }
            line.end();
        }

        private String text() {
            double mean = done.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
            long finished = done.values().stream().filter(f -> f >= 1).count();
            String running = String.join(", ", done.entrySet().stream().filter(e -> e.getValue() < 1)
                    .map(e -> e.getKey() + " " + Math.round(e.getValue() * 100) + "%").toList());
            return String.format("virtual %s %d of %d runs done%s", StatusLine.bar(mean), finished, done.size(),
                    running.isEmpty() ? "" : "; " + running);
        }
    }

    /** {@code homing bench footprint [blocks]}. */
    @Command(name = "footprint", description = "Heap bytes per indexed block of the precise and approximate indexes, "
            + "measured by filling each with a million blocks (or the number given).")
    static final class Footprint implements Callable<Integer> {

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "BLOCKS", defaultValue = "1000000")
        int blocks;

        @Override
        public Integer call() {
            dev.homing.bench.IndexFootprint.main(new String[] {Integer.toString(blocks)});
            return 0;
        }
    }

    /** {@code homing bench jmh [JMH options] [benchmark regex]}. */
    @Command(name = "jmh", description = "Run the JMH benchmarks (SchedulingBenchmark, ...); options are JMH's, "
            + "e.g. 'SchedulingBenchmark -p pods=64 -p promptBytes=32768' or -h for JMH's help.")
    static final class Jmh implements Callable<Integer> {

        @Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            JmhMain.run(args.toArray(String[]::new));
            return 0;
        }
    }
}
