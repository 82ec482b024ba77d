package dev.homing.router.arch;

import dev.homing.protocol.arch.ModuleFloors;
import dev.homing.router.RouterServer;
import dev.homing.router.archfixture.ImportsHigherModules;
import dev.homing.router.archfixture.cycle.Ping;
import dev.homing.router.archfixture.cycle.pong.Pong;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** homing-router's floors: it uses only core and protocol, and has no package cycle. */
class RouterArchitectureTest {

    @TestFactory
    Stream<DynamicTest> floors() {
        return ModuleFloors.of(RouterServer.class)
                .tests(List.of("core", "protocol"), ImportsHigherModules.class, Ping.class, Pong.class);
    }
}
