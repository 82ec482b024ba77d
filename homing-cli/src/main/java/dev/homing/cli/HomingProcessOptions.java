package dev.homing.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How the data-plane benchmarks start the {@code homing serve} they measure: which build, with which JVM options. */
final class HomingProcessOptions {

    @Option(names = "--homing-jar", paramLabel = "JAR",
            description = "Run this build of Homing (its runnable jar) as the router measured, e.g. an older one.")
    Path jar;

    @Option(names = "--homing-config", paramLabel = "FILE",
            description = "An EndpointPickerConfig for Homing's process (its --config; default: Homing's default).")
    Path config;

    @Option(names = "--homing-jvm-args", paramLabel = "ARGS", split = " ",
            description = "Extra JVM options for Homing's process (space-separated).")
    List<String> jvmArgs = new ArrayList<>();
}
