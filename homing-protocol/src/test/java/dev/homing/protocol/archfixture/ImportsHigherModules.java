package dev.homing.protocol.archfixture;

import dev.homing.bench.archstandin.BenchStandIn;
import dev.homing.cli.archstandin.CliStandIn;
import dev.homing.core.archstandin.CoreStandIn;
import dev.homing.router.archstandin.RouterStandIn;
import dev.homing.sim.archstandin.SimStandIn;

/** Breaks "protocol uses nothing of ours": it names a class of every other module. */
public final class ImportsHigherModules {

    CoreStandIn core;
    SimStandIn sim;
    RouterStandIn router;
    BenchStandIn bench;
    CliStandIn cli;
}
