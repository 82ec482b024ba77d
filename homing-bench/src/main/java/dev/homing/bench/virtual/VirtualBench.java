package dev.homing.bench.virtual;

import dev.homing.bench.result.BenchReport;
import dev.homing.bench.result.PolicyRun;
import dev.homing.bench.workload.HitRateBound;
import dev.homing.bench.workload.PooledBounds;
import dev.homing.bench.workload.Workload;
import dev.homing.bench.workload.Workloads;
import dev.homing.sim.engine.EngineConfig;
import dev.homing.sim.engine.Preset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * Runs a scenario in virtual time: the same workload, once per policy, each on a fresh cluster of simulated pods.
 * Runs are independent and deterministic, so they go in parallel (one per core by default) and a seed always gives
 * the same records.
 */
public final class VirtualBench {

    private VirtualBench() {
    }

    /**
     * @param policies the policies to compare, in report order (the scenario's when empty)
     * @param progress hears (policy, fraction of its requests done) as runs advance; called from the runs' threads,
     *                 one call at a time
     */
    public static BenchReport run(Scenario s, List<String> policies, long seed, BiConsumer<String, Double> progress) {
        return run(s, policies, seed, progress, Runtime.getRuntime().availableProcessors());
    }

    /** As {@link #run(Scenario, List, long, BiConsumer)}, with at most {@code threads} policies at once. */
    public static BenchReport run(Scenario s, List<String> policies, long seed, BiConsumer<String, Double> progress,
                                  int threads) {
        Workload workload = Workloads.create(s.workload(), s.workloadParameters(), seed);
        return run(s, workload, policies, seed, progress, threads);
    }

    /** Runs a workload made elsewhere (a test's, a trace's) on the scenario's cluster. */
    public static BenchReport run(Scenario s, Workload workload, List<String> policies, long seed,
                                  BiConsumer<String, Double> progress, int threads) {
        List<String> names = policies.isEmpty() ? s.policies() : List.copyOf(policies);
        EngineConfig engine = Preset.byName(s.preset()).engine();
        String model = Preset.byName(s.preset()).modelName();
        BiConsumer<String, Double> serial = serialized(progress);
        List<PolicyRun> runs = new ArrayList<>();
        int width = Math.max(1, Math.min(threads, names.size()));
        ExecutorService pool = Executors.newFixedThreadPool(width, r -> {
            Thread t = new Thread(r, "virtual-bench");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<PolicyRun>> futures = new ArrayList<>();
            for (String name : names) {
                // Built before any run starts, so a bad policy name fails fast.
                ClusterRun run = new ClusterRun(workload, engine, model, s.pods(), name, seed,
                        s.scrapeInterval().toNanos(), s.kvEventLag().toNanos(), serial);
                futures.add(pool.submit(run::run));
            }
            for (Future<PolicyRun> f : futures) {
                runs.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("preset", s.preset());
        parameters.put("pods", s.pods());
        parameters.put("scrape_interval_ms", s.scrapeInterval().toNanos() / 1e6);
        parameters.put("kv_event_lag_ms", s.kvEventLag().toNanos() / 1e6);
        parameters.put("workload", workload.name());
        parameters.put("workload_parameters", workload.parameters());
        // the fleet's KV memory pooled: every pod's usable blocks (vLLM's null block is not one)
        long fleetBlocks = (long) s.pods() * (engine.numGpuBlocks() - 1);
        parameters.put("fleet_kv_blocks", fleetBlocks);
        return new BenchReport(s.name(), "virtual", seed, runs,
                Map.of(workload.name(), HitRateBound.of(workload, engine.blockSize())),
                Map.of(workload.name(), PooledBounds.of(workload, engine.blockSize(), fleetBlocks)), parameters,
                command(s, names, seed));
    }

    private static String command(Scenario s, List<String> names, long seed) {
        StringBuilder b = new StringBuilder("homing bench --virtual --scenario ").append(s.name())
                .append(" --seed ").append(seed);
        if (!names.equals(s.policies())) {
            b.append(" --policies ").append(String.join(",", names));
        }
        return b.toString();
    }

    private static BiConsumer<String, Double> serialized(BiConsumer<String, Double> progress) {
        Object lock = new Object();
        return (name, fraction) -> {
            synchronized (lock) {
                progress.accept(name, fraction);
            }
        };
    }
}
