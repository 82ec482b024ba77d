package dev.homing.sim.archfixture;

import dev.homing.bench.archstandin.BenchStandIn;
import dev.homing.cli.archstandin.CliStandIn;
import dev.homing.core.archstandin.CoreStandIn;
import dev.homing.router.archstandin.RouterStandIn;

/** Breaks "sim uses only protocol, never core": it names a class of core and of every module above sim. */
public final class ImportsHigherModules {

    CoreStandIn core;
    RouterStandIn router;
    BenchStandIn bench;
    CliStandIn cli;
}
