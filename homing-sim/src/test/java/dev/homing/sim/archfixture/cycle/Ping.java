package dev.homing.sim.archfixture.cycle;

import dev.homing.sim.archfixture.cycle.pong.Pong;

/** With {@link Pong}, a cycle between a package and the package nested in it. */
public final class Ping {

    Pong pong;
}
