package dev.homing.core.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.homing.protocol.arch.AccessTargets.CONSTRUCTOR;
import static dev.homing.protocol.arch.AccessTargets.declaringClass;
import static dev.homing.protocol.arch.AccessTargets.parameterTypes;
import static dev.homing.protocol.arch.AccessTargets.where;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import dev.homing.core.framework.plugin.Plugin;
import dev.homing.core.plugins.BuiltIns;
import dev.homing.protocol.arch.TimeAndRandomRules;
import java.util.List;
import java.util.Set;

/**
 * homing-core's own floors, beyond those of every module ({@code ModuleFloors}): checked on the main classes by
 * CoreArchitectureTest, on fixtures by CoreRulesFailTest.
 */
final class CoreRules {

    static final String CORE = "dev.homing.core..";
    static final String PLUGINS = "dev.homing.core.plugins..";
    static final DescribedPredicate<JavaClass> IN_CORE = resideInAPackage(CORE);

    static final ArchRule NO_CLOCK = TimeAndRandomRules.noClockReads(IN_CORE);
    static final ArchRule NO_WAITS = TimeAndRandomRules.noWaitsOnTheClock(IN_CORE);
    static final ArchRule NO_GLOBAL_RANDOM = TimeAndRandomRules.noGlobalRandom(IN_CORE);

    /**
     * Files, network and processes, by the types that reach them. {@code java.io}'s abstract streams and exceptions
     * are not among them, which is how {@code DefaultConfig} reads its YAML: {@code Class.getResourceAsStream} hands
     * an {@code InputStream} over a resource inside core's own jar (a {@code Class.getResource} URL would be java.net).
     * Of java.net, the pure values are allowed: a URI, URL encoding, and an InetSocketAddress made unresolved (its
     * constructors and getAddress/getHostName look the host up, so those accesses count).
     */
    static final ArchRule NO_IO = noClasses().that(IN_CORE)
            .should().dependOnClassesThat(DescribedPredicate.describe(
                    "reach files, the network or processes (java.net but URI, URLEncoder, URLDecoder and "
                            + "InetSocketAddress, java.nio.file, java.nio.channels, javax.net, jdk.net, "
                            + "java.io.File*, RandomAccessFile, Console, Process*, ZipFile, JarFile, logging's "
                            + "FileHandler)",
                    CoreRules::reachesTheOutside))
            .orShould().accessTargetWhere(where(
                    "Runtime.exec, a PrintStream, PrintWriter or Formatter opened on a file name, or an "
                            + "InetSocketAddress but createUnresolved, getHostString, getPort, isUnresolved",
                    CoreRules::opensAFileOrProcessOrLooksUpAHost))
            .because("core is the model: the router and the bench do its I/O (DEVELOPERS.md, Modules)");

    static final ArchRule NO_STANDARD_STREAMS = noClasses().that(IN_CORE)
            .should().accessTargetWhere(where(
                    "the standard streams (System.out/err/in, System.console, System.setOut/setErr/setIn, "
                            + "Throwable.printStackTrace())",
                    CoreRules::usesStandardStreams))
            .because("core prints nothing: its callers decide what a person sees");

    /** Stronger than the packages it names: any core package but plugins, present or future, knows no plugin. */
    static final ArchRule ONLY_PLUGINS_KNOW_PLUGINS = noClasses()
            .that().resideInAPackage(CORE).and().resideOutsideOfPackage(PLUGINS)
            .should().dependOnClassesThat().resideInAPackage(PLUGINS)
            .because("the framework (and config, director, endpoint, precise, collect, time) imports no plugin; "
                    + "plugins.BuiltIns lists them");

    static final ArchRule PRECISE_WITHOUT_FRAMEWORK = noClasses()
            .that().resideInAPackage("dev.homing.core.precise..")
            .should().dependOnClassesThat().resideInAPackage("dev.homing.core.framework..")
            .because("hosts reach precise producers through core.precise.KvEventFeed, not the plugin framework");

    /** Every {@code public static final PluginType} declared in core.plugins is an element of BuiltIns.TYPES. */
    static final ArchRule PLUGIN_TYPES_LISTED = classes().that().resideInAPackage(PLUGINS)
            .should(new PluginTypesListed(BuiltIns.TYPES))
            .because("adding a plugin is one file plus one line in plugins.BuiltIns");

    /** Every concrete Plugin class in core.plugins, nested ones too, declares a public static final PluginType. */
    static final ArchRule PLUGINS_DECLARE_A_TYPE = classes()
            .that().resideInAPackage(PLUGINS).and().areAssignableTo(Plugin.class)
            .and().doNotHaveModifier(JavaModifier.ABSTRACT)
            .should(new DeclaresAPluginType())
            .because("a plugin's type (factory, aliases, default role, pairing) is declared beside its class");

    private static final Set<String> OUTSIDE_TYPES = Set.of("java.io.File", "java.io.FileInputStream",
            "java.io.FileOutputStream", "java.io.FileReader", "java.io.FileWriter", "java.io.RandomAccessFile",
            "java.io.FileDescriptor", "java.io.Console", "java.lang.Process", "java.lang.ProcessBuilder",
            "java.lang.ProcessHandle", "java.util.zip.ZipFile", "java.util.jar.JarFile", "java.util.logging.FileHandler");
    /** Values of java.net that touch no network: parsing, encoding, an address not looked up. */
    private static final Set<String> NET_VALUES = Set.of("java.net.URI", "java.net.URISyntaxException",
            "java.net.URLEncoder", "java.net.URLDecoder", "java.net.InetSocketAddress");
    private static final String SOCKET_ADDRESS = "java.net.InetSocketAddress";
    private static final Set<String> UNRESOLVED_ADDRESS = Set.of("createUnresolved", "getHostString", "getPort",
            "isUnresolved", "equals", "hashCode", "toString");
    private static final List<String> OUTSIDE_PACKAGES = List.of("java.net.", "java.nio.file.", "java.nio.channels.",
            "javax.net.", "jdk.net.");
    private static final Set<String> STANDARD_STREAMS = Set.of("out", "err", "in", "console", "setOut", "setErr",
            "setIn");
    private static final Set<String> FILE_WRITERS = Set.of("java.io.PrintStream", "java.io.PrintWriter",
            "java.util.Formatter");

    private CoreRules() {
    }

    private static boolean reachesTheOutside(JavaClass type) {
        String name = type.getName();
        return OUTSIDE_TYPES.contains(name) || name.startsWith("java.lang.ProcessBuilder$")
                || OUTSIDE_PACKAGES.stream().anyMatch(name::startsWith) && !NET_VALUES.contains(name);
    }

    private static boolean opensAFileOrProcessOrLooksUpAHost(AccessTarget target) {
        String owner = declaringClass(target);
        List<String> params = parameterTypes(target);
        return owner.equals("java.lang.Runtime") && target.getName().equals("exec")
                || FILE_WRITERS.contains(owner) && target.getName().equals(CONSTRUCTOR)
                && !params.isEmpty() && params.getFirst().equals("java.lang.String")
                || owner.equals(SOCKET_ADDRESS) && !UNRESOLVED_ADDRESS.contains(target.getName());
    }

    private static boolean usesStandardStreams(AccessTarget target) {
        String name = target.getName();
        return switch (declaringClass(target)) {
            case "java.lang.System" -> STANDARD_STREAMS.contains(name);
            case "java.lang.Throwable" -> name.equals("printStackTrace") && parameterTypes(target).isEmpty();
            default -> false;
        };
    }
}
