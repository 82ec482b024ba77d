package dev.homing.bench.arch;

import dev.homing.bench.archfixture.ImportsHigherModules;
import dev.homing.bench.archfixture.cycle.Ping;
import dev.homing.bench.archfixture.cycle.pong.Pong;
import dev.homing.bench.virtual.VirtualBench;
import dev.homing.protocol.arch.ModuleFloors;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** homing-bench's floors: it uses only core, sim and protocol (never the router), and has no package cycle. */
class BenchArchitectureTest {

    @TestFactory
    Stream<DynamicTest> floors() {
        return ModuleFloors.of(VirtualBench.class)
                .tests(List.of("core", "sim", "protocol"), ImportsHigherModules.class, Ping.class, Pong.class);
    }
}
