package dev.homing.bench.archfixture;

import dev.homing.cli.archstandin.CliStandIn;
import dev.homing.router.archstandin.RouterStandIn;

/** Breaks "bench uses only core, sim and protocol": it names a class of the router and of cli. */
public final class ImportsHigherModules {

    RouterStandIn router;
    CliStandIn cli;
}
