package dev.homing.router.archfixture;

import dev.homing.bench.archstandin.BenchStandIn;
import dev.homing.cli.archstandin.CliStandIn;
import dev.homing.sim.archstandin.SimStandIn;

/** Breaks "router uses only core and protocol": it names a class of sim, bench and cli. */
public final class ImportsHigherModules {

    SimStandIn sim;
    BenchStandIn bench;
    CliStandIn cli;
}
