package dev.homing.bench.archfixture.cycle;

import dev.homing.bench.archfixture.cycle.pong.Pong;

/** With {@link Pong}, a cycle between a package and the package nested in it. */
public final class Ping {

    Pong pong;
}
