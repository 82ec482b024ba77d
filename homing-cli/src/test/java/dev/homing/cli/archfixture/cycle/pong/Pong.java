package dev.homing.cli.archfixture.cycle.pong;

import dev.homing.cli.archfixture.cycle.Ping;

/** With {@link Ping}, a cycle between a package and the package nested in it. */
public final class Pong {

    Ping ping;
}
