package dev.homing.cli;

import dev.homing.bench.jmh.JmhMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code homing bench}: measurements. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks: micro-benchmarks of the router's hot paths (jmh).",
        subcommands = {BenchCommand.Jmh.class, BenchCommand.Footprint.class})
final class BenchCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
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
