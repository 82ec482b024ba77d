package dev.homing.router.explain.archfixture;

import dev.homing.router.proxy.ApiPort;

/** Breaks "explain imports nothing of proxy": it forwards. */
public final class Forwards {

    ApiPort port;
}
