package dev.homing.cli;

import dev.homing.core.config.BuiltInConfig;
import dev.homing.core.config.ConfigParser;
import dev.homing.core.config.ConfigResolver;
import dev.homing.core.config.ResolvedConfig;
import dev.homing.core.endpoint.EndpointPool;
import dev.homing.core.framework.plugin.PluginContext;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.router.SystemTicker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code homing config}: work with EndpointPickerConfig files without serving. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Check EndpointPickerConfig files (llm-d's format) without serving.",
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Default.class})
final class ConfigCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** {@code homing config check FILE}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Validate a config and print the profiles it resolves to, with every default filled in, "
                    + "then its warnings (each with its line). Exit 0 when it can be used, warnings or not; 2 with the "
                    + "offending line when not.")
    static final class Check implements Callable<Integer> {

        @Parameters(paramLabel = "FILE", description = "The EndpointPickerConfig YAML file.")
        Path file;

        @Override
        public Integer call() throws Exception {
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                System.err.println("homing: " + file + ": cannot be read: " + e.getMessage());
                return Main.EXIT_CONFIG;
            }
            ResolvedConfig r = new ConfigResolver(BuiltIns.registry()).resolve(ConfigParser.parse(text, file.toString()),
                    new PluginContext(SystemTicker.INSTANCE, new SplittableRandom(0), new EndpointPool()));
            System.out.println(file + ": OK (" + r.config().apiVersion() + ")");
            System.out.print(r.describe());
            return 0;
        }
    }

    /** {@code homing config default [--pd]}: the file on standard output, its warnings on standard error. */
    @Command(name = "default", mixinStandardHelpOptions = true,
            description = "Print the config Homing runs when given none; a starting point for your own. Its warnings, "
                    + "if any, go to standard error.")
    static final class Default implements Callable<Integer> {

        @picocli.CommandLine.Option(names = "--pd",
                description = "Print the P/D config instead (llm-d's pd-epp-config.yaml unchanged, what `homing up "
                        + "--pd` runs), for `homing serve --config` in front of labelled prefill and decode endpoints.")
        boolean pd;

        @Override
        public Integer call() {
            BuiltInConfig config = pd ? BuiltInConfig.PD : BuiltInConfig.DEFAULT;
            System.out.print(config.text());
            for (String w : config.resolve(BuiltIns.registry(), new PluginContext(SystemTicker.INSTANCE,
                    new SplittableRandom(0), new EndpointPool())).warnings()) {
                System.err.println("warning: " + w);
            }
            return 0;
        }
    }
}
