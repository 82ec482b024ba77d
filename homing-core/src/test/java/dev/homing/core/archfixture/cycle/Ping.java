package dev.homing.core.archfixture.cycle;

import dev.homing.core.archfixture.cycle.pong.Pong;

/** With {@link Pong}, a cycle between a package and the package nested in it. */
public final class Ping {

    Pong pong;
}
