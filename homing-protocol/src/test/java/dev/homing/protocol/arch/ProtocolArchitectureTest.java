package dev.homing.protocol.arch;

import dev.homing.protocol.archfixture.ImportsHigherModules;
import dev.homing.protocol.archfixture.cycle.Ping;
import dev.homing.protocol.archfixture.cycle.pong.Pong;
import dev.homing.protocol.openai.RequestParser;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** homing-protocol's floors: it uses no other module of ours and has no package cycle. */
class ProtocolArchitectureTest {

    @TestFactory
    Stream<DynamicTest> floors() {
        return ModuleFloors.of(RequestParser.class).tests(List.of(), ImportsHigherModules.class, Ping.class, Pong.class);
    }
}
