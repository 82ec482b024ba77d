package dev.homing.bench.jmh;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/** Runs the JMH benchmarks of this jar with JMH's own command-line options ({@code homing bench jmh -h}). */
public final class JmhMain {

    private JmhMain() {
    }

    public static void run(String... args) throws RunnerException, CommandLineOptionException {
        new Runner(new CommandLineOptions(args)).run();
    }
}
