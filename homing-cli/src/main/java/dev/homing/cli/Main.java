package dev.homing.cli;

import dev.homing.core.config.ConfigException;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code homing} command. */
@Command(name = "homing", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A KV-cache-aware router for vLLM fleets, and the simulated vLLM cluster to try it on.",
        subcommands = {UpCommand.class, DemoCommand.class, ServeCommand.class, SimCommand.class, ConfigCommand.class,
                BenchCommand.class, SoakCommand.class})
public final class Main implements Runnable {

    /** Exit code for a configuration that cannot be used. */
    static final int EXIT_CONFIG = 2;

    /** Held so the level sticks: java.util.logging keeps loggers only weakly. */
    private static final Logger HELIDON_LOG = Logger.getLogger("io.helidon");
    /** fabric8's informers log each failed list with a stack trace; Homing's discovery says it in one line. */
    private static final Logger FABRIC8_INFORMERS_LOG = Logger.getLogger("io.fabric8.kubernetes.client.informers");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (tests call this). */
    public static int run(String... args) {
        quietLogging();
        return new CommandLine(new Main())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Main::handle)
                .execute(args);
    }

    /**
     * A configuration error, or a value no option accepts (a bad duration, preset, endpoint list), is the user's to
     * fix: say what and where, without a stack trace.
     */
    private static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) throws Exception {
        if (e instanceof ConfigException) {
            cmd.getErr().println("homing: " + e.getMessage());
            return EXIT_CONFIG;
        }
        if (e instanceof IllegalArgumentException) {
            cmd.getErr().println("homing " + cmd.getCommandName() + ": " + e.getMessage());
            return EXIT_CONFIG;
        }
        throw e;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    private static void quietLogging() {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %4$s %3$s: %5$s%6$s%n");
        }
        // Helidon announces features and channels at INFO; the commands print their own summary.
        HELIDON_LOG.setLevel(Level.WARNING);
        FABRIC8_INFORMERS_LOG.setLevel(Level.SEVERE);
    }

    /** The version from the jar manifest, or "dev". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"homing " + (v == null ? "dev" : v)};
        }
    }
}
