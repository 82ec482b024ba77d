package dev.homing.core.arch;

import static dev.homing.protocol.arch.RuleFixtures.check;
import static dev.homing.protocol.arch.RuleFixtures.violationsOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.homing.core.archfixture.InjectedTimeAndRandom;
import dev.homing.core.archfixture.PrintsToStandardStreams;
import dev.homing.core.archfixture.ReadsTheClock;
import dev.homing.core.archfixture.RollsGlobalDice;
import dev.homing.core.archfixture.WaitsOnTheClock;
import dev.homing.core.config.archfixture.HoldsNetworkValues;
import dev.homing.core.config.archfixture.ReadsAClasspathResource;
import dev.homing.core.config.archfixture.TouchesTheOutside;
import dev.homing.core.framework.archfixture.ImportsAPlugin;
import dev.homing.core.plugins.archfixture.PluginWithoutType;
import dev.homing.core.plugins.archfixture.UnlistedPlugin;
import dev.homing.core.precise.archfixture.ImportsTheFramework;
import org.junit.jupiter.api.Test;

/** Each rule of {@link CoreRules} fails on a fixture written to break it, naming what broke it. */
class CoreRulesFailTest {

    @Test
    void clockRule() {
        assertThat(violationsOf(CoreRules.NO_CLOCK, ReadsTheClock.class))
                .contains("java.lang.System.currentTimeMillis()", "java.lang.System.nanoTime()",
                        "java.time.Instant.now()", "java.time.LocalDateTime.now()", "java.time.Clock.systemUTC()",
                        "java.util.Date.<init>()", "java.util.GregorianCalendar.<init>()",
                        "java.util.GregorianCalendar.<init>(java.util.TimeZone)");
    }

    @Test
    void waitRule() {
        assertThat(violationsOf(CoreRules.NO_WAITS, WaitsOnTheClock.class))
                .contains("java.lang.Thread.sleep(long)", "java.util.concurrent.TimeUnit.sleep(long)",
                        "java.lang.Object.wait(long)", "java.util.concurrent.locks.Condition.awaitNanos(long)",
                        "java.util.concurrent.BlockingQueue.poll(long, java.util.concurrent.TimeUnit)",
                        "java.util.Timer.<init>()", "java.util.Timer.schedule(java.util.TimerTask, long)");
    }

    @Test
    void randomRule() {
        assertThat(violationsOf(CoreRules.NO_GLOBAL_RANDOM, RollsGlobalDice.class))
                .contains("java.lang.Math.random()", "java.util.concurrent.ThreadLocalRandom.current()",
                        "java.util.Random.<init>(long)", "java.security.SecureRandom.<init>()",
                        "java.util.SplittableRandom.<init>()", "java.util.random.RandomGenerator.getDefault()",
                        "java.util.UUID.randomUUID()", "java.util.Collections.shuffle(java.util.List)");
    }

    @Test
    void timeAndRandomRulesAllowWhatIsInjectedOrSeeded() {
        check(CoreRules.NO_CLOCK, InjectedTimeAndRandom.class);
        check(CoreRules.NO_WAITS, InjectedTimeAndRandom.class);
        check(CoreRules.NO_GLOBAL_RANDOM, InjectedTimeAndRandom.class);
    }

    @Test
    void ioRule() {
        assertThat(violationsOf(CoreRules.NO_IO, TouchesTheOutside.class))
                .contains("java.nio.file.Files", "java.nio.file.Path", "java.io.FileInputStream", "java.net.Socket",
                        "java.lang.Runtime.exec(", "java.io.PrintWriter.<init>(java.lang.String)",
                        "java.util.zip.ZipFile", "java.util.jar.JarFile", "java.util.logging.FileHandler",
                        "java.net.InetSocketAddress.<init>(java.lang.String, int)",
                        "java.net.InetSocketAddress.getHostName()");
    }

    @Test
    void ioRuleAllowsAClasspathResource() {
        check(CoreRules.NO_IO, ReadsAClasspathResource.class);
    }

    @Test
    void ioRuleAllowsTheValuesOfJavaNet() {
        check(CoreRules.NO_IO, HoldsNetworkValues.class);
    }

    @Test
    void standardStreamsRule() {
        assertThat(violationsOf(CoreRules.NO_STANDARD_STREAMS, PrintsToStandardStreams.class))
                .contains("java.lang.System.out", "java.lang.System.err", "java.lang.System.in",
                        "java.lang.Exception.printStackTrace()");
    }

    @Test
    void pluginImportRule() {
        assertThat(violationsOf(CoreRules.ONLY_PLUGINS_KNOW_PLUGINS, ImportsAPlugin.class))
                .contains("dev.homing.core.framework.archfixture.ImportsAPlugin",
                        "dev.homing.core.plugins.picker.MaxScorePicker");
    }

    @Test
    void preciseRule() {
        assertThat(violationsOf(CoreRules.PRECISE_WITHOUT_FRAMEWORK, ImportsTheFramework.class))
                .contains("dev.homing.core.precise.archfixture.ImportsTheFramework",
                        "dev.homing.core.framework.plugin.Plugin");
    }

    @Test
    void pluginTypeListedRule() {
        assertThat(violationsOf(CoreRules.PLUGIN_TYPES_LISTED, UnlistedPlugin.class))
                .contains("dev.homing.core.plugins.archfixture.UnlistedPlugin.PLUGIN_TYPE ('unlisted-fixture') is "
                        + "not listed in BuiltIns.TYPES");
    }

    @Test
    void pluginDeclaresTypeRule() {
        assertThat(violationsOf(CoreRules.PLUGINS_DECLARE_A_TYPE, PluginWithoutType.class, UnlistedPlugin.class))
                .contains("dev.homing.core.plugins.archfixture.PluginWithoutType declares no public static final")
                .doesNotContain("UnlistedPlugin");
    }
}
