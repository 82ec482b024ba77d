package dev.homing.cli.arch;

import dev.homing.cli.Main;
import dev.homing.cli.archfixture.cycle.Ping;
import dev.homing.cli.archfixture.cycle.pong.Pong;
import dev.homing.protocol.arch.ModuleFloors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** homing-cli may use every module, so its one floor is no package cycle. */
class CliArchitectureTest {

    @TestFactory
    Stream<DynamicTest> floors() {
        return ModuleFloors.of(Main.class).tests(Ping.class, Pong.class);
    }
}
