package dev.homing.core.archfixture;

import dev.homing.bench.archstandin.BenchStandIn;
import dev.homing.cli.archstandin.CliStandIn;
import dev.homing.router.archstandin.RouterStandIn;
import dev.homing.sim.archstandin.SimStandIn;

/** Breaks "core uses only protocol": it names a class of every module above core and of the simulator. */
public final class ImportsHigherModules {

    SimStandIn sim;
    RouterStandIn router;
    BenchStandIn bench;
    CliStandIn cli;
}
